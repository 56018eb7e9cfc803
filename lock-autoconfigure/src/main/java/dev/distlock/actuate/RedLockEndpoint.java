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

package dev.distlock.actuate;

import java.util.List;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import dev.distlock.redlock.RedLockClient;
import dev.distlock.redlock.RedLockHoldInfo;
import dev.distlock.redlock.RedLockNodeOutcomes;

/**
 * The {@code distlock} actuator endpoint with {@code distlock.store=redlock}
 * ({@code GET /actuator/distlock}): each node of the RedLock client with how it answered
 * acquisition attempts since the client started (granted, refused, timed out, failed),
 * the majority a lock needs, and the locks this instance holds, for threads and for
 * reactive work: key, name, since when, validity left, fencing token and the nodes that
 * granted it. Read from memory, no Redis command. The nodes' figures are those of the
 * {@code distlock.redlock.node.acquisitions} meter. Owner tokens are never shown.
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
	 * Lists the nodes with their outcomes, and the locks this instance holds.
	 * @return the majority, the nodes and the held locks
	 */
	@ReadOperation
	public RedLockDescriptor state() {
		List<RedLockNodeOutcomes> nodes = this.client.nodeOutcomes();
		return new RedLockDescriptor(nodes.size() / 2 + 1, nodes, this.client.heldLocks());
	}

	/**
	 * The RedLock nodes, in the order of {@code distlock.redlock.nodes}, and the locks
	 * this instance holds on them.
	 *
	 * @param majority how many nodes must grant a lock
	 * @param nodes each node's answers to acquisition attempts
	 * @param locks the locks this instance holds, by name and key
	 */
	public record RedLockDescriptor(int majority, List<RedLockNodeOutcomes> nodes,
			List<RedLockHoldInfo> locks) implements OperationResponseBody {
	}

}
