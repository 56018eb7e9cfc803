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

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.WaitTimings;

/**
 * One acquisition's place in a lock's queue, as a {@link ReleaseMessageWaiter} keeps it:
 * the attempts queue the owner token with the client's channel, and the wait ends when a
 * message naming that token arrives with the hand-over, or when the backstop, the
 * holder's lease or the deadline says to attempt again. Each hand-over is taken once: one
 * that the acquirer finds void does not end later waits.
 * <p>
 * With a fallback, the channel is asked for before each attempt: while there is none (the
 * sharded subscription of the lock's slot is not confirmed), the attempt stays out of the
 * queue and the wait is the fallback's, after which a hand-over that arrived meanwhile
 * (for a place taken earlier) is still taken.
 * <p>
 * The wait registers for messages (and, with sharded channels, counts in on its slot's
 * subscription) when first asked for its channel, before the first attempt that may queue
 * it, so that a waiter whose plain first attempt gets the lock never registers.
 */
final class QueuedWait implements LockWaiter.Wait {

	private final String token;

	private final Supplier<@Nullable String> channel;

	private final LockWaiter.@Nullable Wait fallback;

	private final Consumer<QueuedWait> onRegister;

	private final BiConsumer<String, QueuedWait> onClose;

	private boolean registered;

	private final BlockingQueue<HandOverMessage> handOvers = new LinkedTransferQueue<>();

	private @Nullable HandOverMessage received;

	private boolean queued = true;

	private volatile boolean waiting;

	/**
	 * Creates a wait on one channel.
	 * @param token the owner token of the acquisition
	 * @param channel the channel the hand-over message comes on
	 * @param onRegister called with this wait when it is first asked for its channel
	 * @param onClose called with the token and this wait when it closes, if it registered
	 */
	QueuedWait(String token, String channel, Consumer<QueuedWait> onRegister, BiConsumer<String, QueuedWait> onClose) {
		this(token, () -> channel, null, onRegister, onClose);
	}

	/**
	 * Creates a wait whose channel may come and go.
	 * @param token the owner token of the acquisition
	 * @param channel the channel the hand-over message comes on, or null while there is
	 * none
	 * @param fallback how to wait while there is no channel; null if there always is one
	 * @param onRegister called with this wait when it is first asked for its channel
	 * @param onClose called with the token and this wait when it closes, if it registered
	 */
	QueuedWait(String token, Supplier<@Nullable String> channel, LockWaiter.@Nullable Wait fallback,
			Consumer<QueuedWait> onRegister, BiConsumer<String, QueuedWait> onClose) {
		this.token = token;
		this.channel = channel;
		this.fallback = fallback;
		this.onRegister = onRegister;
		this.onClose = onClose;
	}

	/** Records a hand-over and wakes the acquirer. */
	void handOver(HandOverMessage handOver) {
		this.handOvers.add(handOver);
	}

	/** Whether an attempt failed and the acquirer has started waiting. */
	boolean isWaiting() {
		return this.waiting;
	}

	@Override
	public @Nullable String handOverChannel() {
		if (!this.registered) {
			this.registered = true;
			this.onRegister.accept(this);
		}
		String current = this.channel.get();
		this.queued = current != null || this.fallback == null;
		return current;
	}

	@Override
	public boolean await(long holderLeaseMillis, long deadlineNanos) {
		this.waiting = true;
		if (!this.queued && this.fallback != null) {
			boolean awaited = this.fallback.await(holderLeaseMillis, deadlineNanos);
			this.received = this.handOvers.poll();
			return awaited;
		}
		long timeout = Math.min(deadlineNanos - System.nanoTime(), Math
			.min(TimeUnit.MILLISECONDS.toNanos(Math.max(holderLeaseMillis, 1)), WaitTimings.MAX_SILENT_WAIT.toNanos()));
		try {
			this.received = this.handOvers.poll(Math.max(timeout, 0), TimeUnit.NANOSECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public @Nullable HandOverMessage takeHandOver() {
		HandOverMessage handOver = this.received;
		this.received = null;
		return handOver;
	}

	@Override
	public void close(boolean acquired) {
		if (this.fallback != null) {
			this.fallback.close(acquired);
		}
		if (this.registered) {
			this.onClose.accept(this.token, this);
		}
	}

}
