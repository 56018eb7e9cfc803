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

package dev.distlock.redis.monitor;

import java.util.List;

/**
 * What a client's sharded release subscription holds now, for its health. A slot is
 * subscribed only while a caller of the client waits on a lock of that slot, so no
 * subscribed slot and no connection is the normal state of a client nobody waits on.
 *
 * @param running whether the subscription runs, as it does while the client runs
 * @param connected whether the cluster pub/sub connection is open (it opens when a caller
 * first waits)
 * @param subscribedSlots the slots whose channel is subscribed, with confirmation from
 * the slot's master
 * @param pendingSlots the slots callers wait on whose channel is not confirmed: their
 * waiters retry meanwhile
 * @param overdueSlots the pending slots that have stayed unconfirmed for longer than a
 * failover takes to recover
 */
public record ShardedSubscriptionState(boolean running, boolean connected, List<Integer> subscribedSlots,
		List<Integer> pendingSlots, List<Integer> overdueSlots) {

	/**
	 * Returns whether waiters can be handed locks by message: the subscription runs and
	 * no slot is overdue.
	 * @return whether the subscription is healthy
	 */
	public boolean isHealthy() {
		return this.running && this.overdueSlots.isEmpty();
	}

}
