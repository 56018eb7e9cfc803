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

package dev.distlock.redis.messages;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.distlock.redis.monitor.ShardedSubscriptionState;
import dev.distlock.redis.protocol.LockKeyspace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slot is subscribed from its first waiter to its last, and its state tells health
 * which slots are subscribed, which are pending, and which have been pending too long.
 */
class SlotSubscriptionsTests {

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", true, 1024);

	private final List<String> changes = new ArrayList<>();

	private final SlotSubscriptions slots = new SlotSubscriptions((slot) -> KEYSPACE.shardedReleaseChannel("c1", slot));

	@Test
	void slotIsSubscribedFromItsFirstWaiterToItsLast() {
		this.slots.subscriber((channel, subscribe) -> this.changes.add((subscribe ? "+" : "-") + channel));
		int slot = this.slots.join("{a}:lock");
		this.slots.join("{a}:lock");
		String channel = KEYSPACE.shardedReleaseChannel("c1", slot);
		assertThat(this.changes).containsExactly("+" + channel);
		assertThat(this.slots.channelIfSubscribed(slot)).as("not confirmed yet").isNull();
		this.slots.confirmed(channel);
		assertThat(this.slots.channelIfSubscribed(slot)).isEqualTo(channel);
		this.slots.leave(slot);
		this.slots.leave(slot);
		assertThat(this.changes).containsExactly("+" + channel, "-" + channel);
		assertThat(this.slots.channelIfSubscribed(slot)).isNull();
	}

	@Test
	void stateShowsSubscribedPendingAndOverdueSlots() {
		int confirmed = this.slots.join("{a}:lock");
		int pending = this.slots.join("{b}:lock");
		this.slots.confirmed(KEYSPACE.shardedReleaseChannel("c1", confirmed));
		ShardedSubscriptionState state = this.slots.state(true, true, Long.MAX_VALUE);
		assertThat(state.subscribedSlots()).containsExactly(confirmed);
		assertThat(state.pendingSlots()).containsExactly(pending);
		assertThat(state.overdueSlots()).isEmpty();
		assertThat(state.isHealthy()).as("pending for less than the bound").isTrue();
		ShardedSubscriptionState overdue = this.slots.state(true, true, -1);
		assertThat(overdue.overdueSlots()).containsExactly(pending);
		assertThat(overdue.isHealthy()).isFalse();
		assertThat(this.slots.state(false, false, Long.MAX_VALUE).isHealthy()).as("stopped").isFalse();
	}

	@Test
	void nobodyWaitingIsHealthy() {
		ShardedSubscriptionState state = this.slots.state(true, false, 0);
		assertThat(state.subscribedSlots()).isEmpty();
		assertThat(state.pendingSlots()).isEmpty();
		assertThat(state.isHealthy()).isTrue();
	}

}
