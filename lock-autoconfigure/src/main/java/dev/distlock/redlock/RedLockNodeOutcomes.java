/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
 * @param quarantined how many attempts the node granted that did not count towards a
 * majority, because the node had restarted less than the longest lease (plus the drift
 * margin) before
 */
public record RedLockNodeOutcomes(String node, String server, long granted, long refused, long timedOut, long failed,
		long quarantined) {

}
