package dev.distlock.redlock;

/**
 * How often one RedLock node answered acquisition attempts (phase 1) each way, since the
 * client started: the figures of the {@code distlock.redlock.node.acquisitions} meter and
 * the actuator's view of the nodes.
 *
 * @param node the node's property and server, without credentials, for example
 * {@code distlock.redlock.nodes[0] (localhost:6379)}
 * @param server the node's host and port, without credentials
 * @param granted how many attempts the node granted
 * @param refused how many attempts the node refused because another owner held the key
 * @param timedOut how many attempts the node did not answer within the node timeout
 * @param failed how many attempts failed on the node otherwise: not connected, or an
 * error reply
 */
public record RedLockNodeOutcomes(String node, String server, long granted, long refused, long timedOut, long failed) {

}
