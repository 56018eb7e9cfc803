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

import java.util.List;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds the {@value #NODE_ACQUISITIONS} counter of a {@link RedLockClient}: how each node
 * answered acquisition attempts (phase 1), tagged with the {@code node} (its host and
 * port, {@code host:port}) and the {@code outcome}: {@value #GRANTED}, {@value #REFUSED}
 * (another owner held the key there), {@value #TIMED_OUT} (no answer within
 * {@code distlock.redlock.node-timeout}), {@value #FAILED} (not connected, or an error
 * reply) or {@value #QUARANTINED} (granted, but not counted: the node restarted less than
 * the longest lease before). A node that is down shows as its failed or timed-out count
 * growing while the others grant.
 */
public class RedLockNodeMetrics implements MeterBinder {

	/** Name of the counter of each node's answers to acquisition attempts. */
	public static final String NODE_ACQUISITIONS = "distlock.redlock.node.acquisitions";

	/** Outcome of a node that granted. */
	public static final String GRANTED = "granted";

	/** Outcome of a node that refused because another owner held the key. */
	public static final String REFUSED = "refused";

	/** Outcome of a node that did not answer within the node timeout. */
	public static final String TIMED_OUT = "timed_out";

	/** Outcome of a node that was not connected or answered with an error. */
	public static final String FAILED = "failed";

	/**
	 * Outcome of a node that granted, but had restarted less than the longest lease (plus
	 * the drift margin) before, so that its grant did not count towards a majority.
	 */
	public static final String QUARANTINED = "quarantined";

	private final RedLockClient client;

	/**
	 * Creates the meters of a client's nodes.
	 * @param client the RedLock client
	 */
	public RedLockNodeMetrics(RedLockClient client) {
		this.client = client;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		List<RedLockNodeOutcomes> nodes = this.client.nodeOutcomes();
		for (int i = 0; i < nodes.size(); i++) {
			String node = nodes.get(i).server();
			counter(registry, i, node, GRANTED, RedLockNodeOutcomes::granted);
			counter(registry, i, node, REFUSED, RedLockNodeOutcomes::refused);
			counter(registry, i, node, TIMED_OUT, RedLockNodeOutcomes::timedOut);
			counter(registry, i, node, FAILED, RedLockNodeOutcomes::failed);
			counter(registry, i, node, QUARANTINED, RedLockNodeOutcomes::quarantined);
		}
	}

	private void counter(MeterRegistry registry, int index, String node, String outcome,
			ToLongFunction<RedLockNodeOutcomes> count) {
		FunctionCounter
			.builder(NODE_ACQUISITIONS, this.client, (client) -> count.applyAsLong(client.nodeOutcomes().get(index)))
			.description("Answers of each RedLock node to acquisition attempts")
			.tag("node", node)
			.tag("outcome", outcome)
			.register(registry);
	}

}
