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

package dev.distlock.redis;

import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import org.springframework.context.Lifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.messages.ReleaseSubscription;
import dev.distlock.redis.messages.ShardedReleaseSubscription;
import dev.distlock.redis.messages.SlotSubscriptions;
import dev.distlock.redis.protocol.LockKeyspace;

/**
 * How a client's waiters are told of hand-overs, if by message: on a cluster through
 * Lettuce, on sharded channels, one per slot, subscribed while someone waits on that
 * slot; otherwise (a single server, Sentinel, or Jedis) on the client's one classic
 * channel, subscribed while the client runs.
 *
 * @param waiter the waiter, or null if waiters only retry
 * @param classic the classic subscription, or null
 * @param sharded the sharded subscription, or null
 * @param subscription what subscribes while the client runs (either kind), or null
 * @param channelOf the channel a release tells a waiter on a lock key on
 */
record ReleaseMessaging(@Nullable ReleaseMessageWaiter waiter, @Nullable ReleaseSubscription classic,
		@Nullable ShardedReleaseSubscription sharded, @Nullable Lifecycle subscription,
		UnaryOperator<String> channelOf) {

	static ReleaseMessaging of(RedisLockClientBuilder builder, RedisConnectionFactory connectionFactory,
			LockKeyspace keyspace, String clientId, boolean lettucePresent) {
		String channel = keyspace.releaseChannel(clientId);
		if (!builder.releaseMessages) {
			return new ReleaseMessaging(null, null, null, null, (key) -> channel);
		}
		if (builder.clusterSlots && builder.shardedChannels && lettucePresent
				&& ShardedReleaseSubscription.supports(connectionFactory)) {
			SlotSubscriptions slots = new SlotSubscriptions((slot) -> keyspace.shardedReleaseChannel(clientId, slot));
			ReleaseMessageWaiter waiter = new ReleaseMessageWaiter(builder.waiter, slots);
			ShardedReleaseSubscription sharded = new ShardedReleaseSubscription(
					(LettuceConnectionFactory) connectionFactory, slots, waiter);
			return new ReleaseMessaging(waiter, null, sharded, sharded,
					(key) -> keyspace.shardedReleaseChannel(clientId, LockKeyspace.slot(key)));
		}
		ReleaseMessageWaiter waiter = new ReleaseMessageWaiter(builder.waiter);
		ReleaseSubscription classic = new ReleaseSubscription(connectionFactory, channel, waiter);
		return new ReleaseMessaging(waiter, classic, null, classic, (key) -> channel);
	}

}
