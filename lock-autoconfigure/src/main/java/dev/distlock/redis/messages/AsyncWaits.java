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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * The reactive acquisitions of a client that wait for a hand-over message, by owner
 * token: {@link ReleaseMessageWaiter} starts their {@link AsyncWait}s here and delivers
 * the messages that name them.
 */
final class AsyncWaits {

	private final Map<String, AsyncWait> waits = new ConcurrentHashMap<>();

	/**
	 * Starts a wait that queues with the channel whenever the supplier gives one.
	 * @param key the Redis key of the lock
	 * @param token the owner token of the acquisition
	 * @param slots the sharded subscriptions, or null for the client's one channel
	 * @param channel the client's one channel, or null while it is not subscribed
	 */
	AsyncWait begin(String key, String token, @Nullable SlotSubscriptions slots, Supplier<@Nullable String> channel) {
		int slot = (slots != null) ? slots.join(key) : -1;
		AsyncWait[] self = new AsyncWait[1];
		self[0] = new AsyncWait((slots != null) ? () -> slots.channelIfSubscribed(slot) : channel,
				JitteredBackoffWaiter.standard(), () -> {
					this.waits.remove(token, self[0]);
					if (slots != null) {
						slots.leave(slot);
					}
				});
		this.waits.put(token, self[0]);
		return self[0];
	}

	/**
	 * Wakes the wait the hand-over names, if one waits, after counting it.
	 * @param count counts a hand-over delivered
	 */
	void deliver(HandOverMessage handOver, Runnable count) {
		AsyncWait wait = this.waits.get(handOver.ownerToken());
		if (wait != null) {
			count.run();
			wait.handOver(handOver);
		}
	}

	/** How many of the acquisitions have paused after an attempt. */
	long waiting() {
		return this.waits.values().stream().filter(AsyncWait::isWaiting).count();
	}

}
