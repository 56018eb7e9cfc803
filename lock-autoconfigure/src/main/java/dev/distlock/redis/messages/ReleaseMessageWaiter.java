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

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;

import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.redis.wait.LockWaiter;

/**
 * Waits in the lock's queue in Redis until a release hands the lock over. The release
 * script sets the lock to the first valid waiter's owner token, grants it the next
 * fencing token and publishes both on that waiter's channel: the channel of its client,
 * to which this waiter is subscribed. The acquirer then holds the lock without another
 * round trip, and releases never publish when nobody waits. Each wait is still bounded by
 * the holder's remaining lease, the caller's deadline and a backstop of one second, after
 * which the acquirer tries again (renewing its place, or finding the lock already handed
 * to it if the message was lost), so a lost message delays an acquirer but never hangs
 * it. While the subscription is not established, waiters fall back to the given backoff
 * and stay out of the queue.
 * <p>
 * On a cluster with {@link SlotSubscriptions sharded channels}, the channel is the
 * client's channel of the lock's slot, subscribed only while a waiter of the client waits
 * on a lock of that slot; each wait asks for it before every attempt, and falls back
 * while it is not confirmed.
 */
public final class ReleaseMessageWaiter implements LockWaiter, MessageListener, SubscriptionListener {

	private final Map<String, QueuedWait> waits = new ConcurrentHashMap<>();

	/** The reactive acquisitions that wait for a hand-over message, by owner token. */
	private final Map<String, AsyncWait> asyncWaits = new ConcurrentHashMap<>();

	private final LockWaiter fallback;

	private final AtomicLong handOvers = new AtomicLong();

	private final @Nullable SlotSubscriptions slots;

	private volatile @Nullable String channel;

	/**
	 * Creates a waiter on the client's one channel.
	 * @param fallback how to wait while the subscription is down
	 */
	public ReleaseMessageWaiter(LockWaiter fallback) {
		this(fallback, null);
	}

	/**
	 * Creates a waiter on the client's sharded channels, one per cluster slot.
	 * @param fallback how to wait while the slot's subscription is not confirmed
	 * @param slots the sharded subscriptions, or null for the client's one channel
	 */
	public ReleaseMessageWaiter(LockWaiter fallback, @Nullable SlotSubscriptions slots) {
		this.fallback = fallback;
		this.slots = slots;
	}

	/**
	 * Returns whether the client's one channel is subscribed, so that waiters are handed
	 * locks (never, with sharded channels: see {@link SlotSubscriptions}).
	 * @return whether the subscription is established
	 */
	public boolean isSubscribed() {
		return this.channel != null;
	}

	/**
	 * Returns how many threads wait for a hand-over after a failed attempt.
	 * @return the number of waiting threads
	 */
	public int waiting() {
		return (int) (this.waits.values().stream().filter(QueuedWait::isWaiting).count()
				+ this.asyncWaits.values().stream().filter(AsyncWait::isWaiting).count());
	}

	/**
	 * Returns how many waiters were told that a release handed them the lock.
	 * @return the number of hand-overs received
	 */
	public long handOvers() {
		return this.handOvers.get();
	}

	@Override
	public Wait begin(String key, String token) {
		SlotSubscriptions shards = this.slots;
		if (shards != null) {
			int slot = LockKeyspace.slot(key);
			return new QueuedWait(token, () -> shards.channelIfSubscribed(slot), this.fallback.begin(key, token),
					(self) -> {
						shards.join(key);
						this.waits.put(token, self);
					}, (ended, self) -> {
						this.waits.remove(ended, self);
						shards.leave(slot);
					});
		}
		String subscribed = this.channel;
		if (subscribed == null) {
			return this.fallback.begin(key, token);
		}
		return new QueuedWait(token, subscribed, (self) -> this.waits.put(token, self), this.waits::remove);
	}

	/**
	 * Starts a reactive acquisition's wait, which never blocks ({@link AsyncWait}).
	 * @param key the Redis key of the lock
	 * @param token the owner token of the acquisition, which a hand-over names
	 * @return the wait, to be closed when the acquisition stops waiting
	 */
	public AsyncWait beginAsync(String key, String token) {
		SlotSubscriptions slots = this.slots;
		int slot = (slots != null) ? slots.join(key) : -1;
		AsyncWait[] self = new AsyncWait[1];
		self[0] = new AsyncWait((slots != null) ? () -> slots.channelIfSubscribed(slot) : () -> this.channel,
				JitteredBackoffWaiter.standard(), () -> {
					this.asyncWaits.remove(token, self[0]);
					if (slots != null) {
						slots.leave(slot);
					}
				});
		this.asyncWaits.put(token, self[0]);
		return self[0];
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		deliver(new String(message.getBody(), StandardCharsets.UTF_8));
	}

	/**
	 * Wakes the waiter a hand-over message names, if it still waits.
	 * @param body the body of the message
	 */
	void deliver(String body) {
		HandOverMessage handOver = HandOverMessage.parse(body);
		if (handOver == null) {
			return;
		}
		// Counted before the waiter is woken, so that it sees its own hand-over counted.
		QueuedWait wait = this.waits.get(handOver.ownerToken());
		if (wait != null) {
			this.handOvers.incrementAndGet();
			wait.handOver(handOver);
		}
		else {
			AsyncWait asyncWait = this.asyncWaits.get(handOver.ownerToken());
			if (asyncWait != null) {
				this.handOvers.incrementAndGet();
				asyncWait.handOver(handOver);
			}
		}
	}

	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		this.channel = new String(channel, StandardCharsets.UTF_8);
	}

	@Override
	public void onChannelUnsubscribed(byte[] channel, long count) {
		this.channel = null;
	}

}
