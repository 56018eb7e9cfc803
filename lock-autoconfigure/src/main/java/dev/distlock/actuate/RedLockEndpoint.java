package dev.distlock.actuate;

import java.util.List;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import dev.distlock.redlock.RedLockClient;
import dev.distlock.redlock.RedLockNodeOutcomes;

/**
 * The {@code distlock} actuator endpoint with {@code distlock.store=redlock}: each node
 * of the RedLock client with how it answered acquisition attempts since the client
 * started (granted, refused, timed out, failed), and the majority a lock needs
 * ({@code GET /actuator/distlock}). Read from memory, no Redis command. The same figures
 * as the {@code distlock.redlock.node.acquisitions} meter.
 */
@Endpoint(id = "distlock")
public class RedLockEndpoint {

	private final RedLockClient client;

	/**
	 * Creates the endpoint.
	 * @param client the RedLock client
	 */
	public RedLockEndpoint(RedLockClient client) {
		this.client = client;
	}

	/**
	 * Lists the nodes with their outcomes.
	 * @return the nodes and the majority
	 */
	@ReadOperation
	public NodesDescriptor nodes() {
		List<RedLockNodeOutcomes> nodes = this.client.nodeOutcomes();
		return new NodesDescriptor(nodes.size() / 2 + 1, nodes);
	}

	/**
	 * The RedLock nodes, in the order of {@code distlock.redlock.nodes}.
	 *
	 * @param majority how many nodes must grant a lock
	 * @param nodes each node's answers to acquisition attempts
	 */
	public record NodesDescriptor(int majority, List<RedLockNodeOutcomes> nodes) {
	}

}
