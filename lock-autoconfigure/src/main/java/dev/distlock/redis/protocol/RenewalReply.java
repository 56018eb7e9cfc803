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

/**
 * What one renewal batch got back from Redis: per key, whether its lease was renewed
 * there, and whether the renewals were acknowledged by as many replicas as must
 * acknowledge them ({@code distlock.replication.min-replicas-acked}). A renewal that the
 * master applied but too few replicas acknowledged must not move the hold's deadline: a
 * failover to such a replica would find the lock expiring with the last write it
 * received.
 *
 * @param renewed per key of the batch, in its order, whether its lease was renewed
 * @param acknowledged whether enough replicas acknowledged the renewals (always, when
 * none must, or when nothing was renewed)
 * @param acknowledgedReplicas how many replicas acknowledged them, or -1 if none were
 * asked
 */
public record RenewalReply(boolean[] renewed, boolean acknowledged, long acknowledgedReplicas) {

	/**
	 * Returns the reply of a renewal that no replica had to acknowledge.
	 * @param renewed per key, whether its lease was renewed
	 * @return the reply
	 */
	public static RenewalReply notAsked(boolean[] renewed) {
		return new RenewalReply(renewed, true, -1);
	}

}
