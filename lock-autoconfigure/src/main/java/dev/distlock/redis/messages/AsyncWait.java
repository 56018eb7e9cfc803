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

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.redis.wait.WaitTimings;

/**
 * One reactive acquisition's wait for a lock, which never blocks a thread: the pause
 * between two attempts is a {@link Mono} that completes when a hand-over message names
 * the acquisition's owner token, or when the next attempt is worth making (on Reactor's
 * timer). While the client's channel is subscribed (for a cluster, its sharded channel of
 * the lock's slot), the attempts take a place in the lock's queue and the pause is
 * bounded by the backstop of {@link WaitTimings#MAX_SILENT_WAIT}, as a blocking
 * {@link QueuedWait} is; otherwise they stay out of the queue and the pause is a jittered
 * backoff.
 */
public final class AsyncWait implements AutoCloseable {

	private final Supplier<@Nullable String> channel;

	private final JitteredBackoffWaiter backoff;

	private final Runnable onClose;

	private final Queue<HandOverMessage> handOvers = new ConcurrentLinkedQueue<>();

	private volatile Sinks.Empty<Void> wakeUp = Sinks.empty();

	private volatile boolean waiting;

	private boolean queued;

	private int backoffs;

	AsyncWait(Supplier<@Nullable String> channel, JitteredBackoffWaiter backoff, Runnable onClose) {
		this.channel = channel;
		this.backoff = backoff;
		this.onClose = onClose;
	}

	/**
	 * Returns a wait that only backs off, for a client whose waiters are not handed locks
	 * by message.
	 * @return the wait
	 */
	public static AsyncWait backoffOnly() {
		return new AsyncWait(() -> null, JitteredBackoffWaiter.standard(), () -> {
		});
	}

	/**
	 * Returns the channel to queue with before an attempt, or {@code null} to stay out of
	 * the queue.
	 * @return the channel, or {@code null}
	 */
	public @Nullable String handOverChannel() {
		String current = this.channel.get();
		this.queued = current != null;
		return current;
	}

	/**
	 * Returns the pause after an attempt that found the lock held: it completes on a
	 * hand-over, or when the next attempt is worth making, at the latest when the
	 * holder's lease runs out or the deadline passes.
	 * @param holderLeaseMillis the holder's remaining lease, as the attempt reported
	 * @param deadlineNanos when the caller gives up, by {@link System#nanoTime()}
	 * @return the pause
	 */
	public Mono<Void> pause(long holderLeaseMillis, long deadlineNanos) {
		this.waiting = true;
		long bound = this.queued ? WaitTimings.MAX_SILENT_WAIT.toNanos() : this.backoff.pauseFor(++this.backoffs);
		long pause = Math.min(bound, Math.min(TimeUnit.MILLISECONDS.toNanos(Math.max(holderLeaseMillis, 1)),
				deadlineNanos - System.nanoTime()));
		Sinks.Empty<Void> sink = Sinks.empty();
		this.wakeUp = sink;
		if (pause <= 0 || !this.handOvers.isEmpty()) {
			return Mono.empty();
		}
		return Mono.firstWithSignal(Mono.delay(Duration.ofNanos(pause)).then(), sink.asMono());
	}

	/**
	 * Returns, once, a hand-over a release announced to this acquisition, if any.
	 * @return the hand-over, or {@code null}
	 */
	public @Nullable HandOverMessage takeHandOver() {
		return this.handOvers.poll();
	}

	/** Records a hand-over and ends the current pause. */
	void handOver(HandOverMessage handOver) {
		this.handOvers.add(handOver);
		this.wakeUp.tryEmitEmpty();
	}

	/** Whether an attempt found the lock held and the acquisition has paused since. */
	boolean isWaiting() {
		return this.waiting;
	}

	/** Ends the wait: no more hand-overs are delivered to it. */
	@Override
	public void close() {
		this.onClose.run();
	}

}
