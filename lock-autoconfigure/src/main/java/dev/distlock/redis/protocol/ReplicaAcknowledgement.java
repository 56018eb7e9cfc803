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

package dev.distlock.redis.protocol;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * How many replicas must acknowledge the write of a grant (and of every renewal batch,
 * and of a lock kept for its minimum hold), and how long to wait for them: after a script
 * that wrote one, {@code WAIT replicas timeout} runs on the connection that sent the
 * script ({@link AcknowledgedScript}), because {@code WAIT} counts the acknowledgements
 * of the writes of the connection it is sent on. With none required ({@link #NONE}) the
 * script runs alone, with no extra round trip. On a Redis Cluster, acknowledgements need
 * Lettuce ({@link RedisLockCommands#acknowledgesOnCluster}).
 *
 * @param replicas how many replicas must acknowledge, 0 for none
 * @param timeout how long {@code WAIT} waits for them, at least 1ms if any are required
 */
public record ReplicaAcknowledgement(int replicas, Duration timeout) {

	/** No acknowledgement: a grant is trusted once the master wrote it. */
	public static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, Duration.ofMillis(100));

	public ReplicaAcknowledgement {
		Assert.isTrue(replicas >= 0, "replicas must not be negative");
		Assert.isTrue(replicas == 0 || timeout.toMillis() >= 1,
				"the timeout of a replica acknowledgement must be at least 1ms (WAIT 0 would block forever)");
	}

	/** Whether any replica must acknowledge a grant. */
	public boolean isRequired() {
		return this.replicas > 0;
	}

}
