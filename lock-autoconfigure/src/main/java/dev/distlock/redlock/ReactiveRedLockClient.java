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

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.support.ReactiveLockedWork;

/**
 * {@link ReactiveLockClient} on a {@link RedLockClient}: the same nodes, scripts, two
 * phases of fencing, validity, renewal and background release retries, so that reactive
 * and blocking callers of one application exclude each other and get tokens from one
 * sequence. Selected with {@code distlock.store=redlock} when Reactor is on the class
 * path.
 * <p>
 * Each acquisition, release and extension runs the RedLock client's own blocking code on
 * a bounded elastic scheduler of this client ({@code distlock-redlock-reactive}), so the
 * decisions of the protocol are written once, and what a reply means is the same for
 * both: a majority of grants and of stored tokens, validity counted from the first send,
 * {@link dev.distlock.LockUnavailableException} when no majority answers. The hold
 * belongs to the work, not to the thread that acquired it. A waiting acquisition takes
 * one of the scheduler's threads while it waits (its attempts and random pauses), at most
 * ten per core; acquisitions beyond that queue, and their wait time counts from the
 * subscription.
 * <p>
 * Cancelling an acquisition interrupts its thread: an attempt in flight is released on
 * every node, and a lock granted at the moment of the cancellation is released in the
 * background, so a cancelled subscriber leaves no hold behind, even one that dropped a
 * grant that came as it was disposed, and whose cancellation reached the acquisition only
 * after the grant. A cancellation that reaches the acquisition later, through an operator
 * still subscribed to it ({@code flatMap}), releases the hold too; one made on the thread
 * that hands the grant on, as it does ({@code next()}), leaves the hold to the
 * subscriber. A release runs to the end even if its subscriber cancels.
 */
public final class ReactiveRedLockClient implements ReactiveLockClient, AutoCloseable {

	private final RedLockClient client;

	private final Scheduler scheduler;

	/**
	 * Creates the reactive client of a RedLock client, with a scheduler of its own.
	 * @param client the RedLock client whose nodes, holds and renewal it shares
	 */
	public ReactiveRedLockClient(RedLockClient client) {
		this.client = client;
		this.scheduler = Schedulers.newBoundedElastic(Schedulers.DEFAULT_BOUNDED_ELASTIC_SIZE,
				Schedulers.DEFAULT_BOUNDED_ELASTIC_QUEUESIZE, "distlock-redlock-reactive", 60, true);
	}

	@Override
	public LockOptions defaultOptions() {
		return this.client.defaultOptions();
	}

	@Override
	public LockOptions defaultOptions(String name) {
		return this.client.defaultOptions(name);
	}

	@Override
	public Mono<ReactiveLockHandle> tryLock(String key, LockOptions options) {
		return Mono.defer(() -> acquire(this.client.lockKey(key), options, System.nanoTime()));
	}

	@Override
	public Mono<ReactiveLockHandle> lock(String key, LockOptions options) {
		return Mono.defer(() -> lockOrFail(this.client.lockKey(key), options));
	}

	@Override
	public <T> Mono<T> withLock(String key, LockOptions options, Mono<T> work) {
		return Mono.defer(() -> {
			String lockKey = this.client.lockKey(key);
			return ReactiveLockedWork.mono(lockKey, options, ReactiveRedLockClient::options,
					lockOrFail(lockKey, options), work);
		});
	}

	@Override
	public <T> Flux<T> withLock(String key, LockOptions options, Flux<T> work) {
		return Flux.defer(() -> {
			String lockKey = this.client.lockKey(key);
			return ReactiveLockedWork.flux(lockKey, options, ReactiveRedLockClient::options,
					lockOrFail(lockKey, options), work);
		});
	}

	/**
	 * Stops the scheduler of this client; the RedLock client is closed on its own.
	 */
	@Override
	public void close() {
		this.scheduler.dispose();
	}

	private Mono<ReactiveLockHandle> lockOrFail(String lockKey, LockOptions options) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return acquire(lockKey, options, start).switchIfEmpty(Mono.error(() -> new LockNotAcquiredException(lockKey,
					options.name(), options.waitTime(), Duration.ofNanos(System.nanoTime() - start))));
		});
	}

	/**
	 * Acquires the key on the scheduler, as {@link RedLockClient#tryLock} does; called
	 * once per subscription.
	 */
	private Mono<ReactiveLockHandle> acquire(String lockKey, LockOptions options, long start) {
		Acquisition acquisition = new Acquisition(lockKey, options, start);
		// Outside the sink: a sink that emitted its value ignores a cancellation, which
		// may still come from a subscriber that dropped the value.
		return Mono.<ReactiveLockHandle>create(acquisition::start).doOnCancel(acquisition::cancel);
	}

	/** The options a hold of this client was acquired with, null for another's. */
	private static @Nullable LockOptions options(ReactiveLockHandle handle) {
		return (handle instanceof ReactiveRedLockHandle hold) ? hold.options() : null;
	}

	/**
	 * One subscription's acquisition, and its cancellation. A cancellation before the
	 * grant interrupts the acquisition; a hold granted anyway is released in the
	 * background: whichever of the two sides comes second sees the other's mark. A
	 * cancellation that comes once the grant was handed on is released too: the
	 * subscriber was disposed as the grant came, and dropped it. Only a cancellation made
	 * while the grant is handed on, on the same thread, leaves the hold to the
	 * subscriber: an operator that takes the grant ({@code next()}, {@code take(1)})
	 * cancels its source as it takes it.
	 */
	private final class Acquisition {

		private final String lockKey;

		private final LockOptions options;

		private final long start;

		private final AtomicBoolean cancelled = new AtomicBoolean();

		private final AtomicReference<@Nullable ReactiveRedLockHandle> granted = new AtomicReference<>();

		private final AtomicReference<@Nullable Disposable> running = new AtomicReference<>();

		/** The thread that hands the grant to the subscriber, while it does. */
		private volatile @Nullable Thread handingOn;

		Acquisition(String lockKey, LockOptions options, long start) {
			this.lockKey = lockKey;
			this.options = options;
			this.start = start;
		}

		void start(MonoSink<ReactiveLockHandle> sink) {
			if (this.cancelled.get()) {
				return;
			}
			this.running.set(ReactiveRedLockClient.this.scheduler.schedule(() -> acquire(sink)));
			if (this.cancelled.get()) {
				// Cancelled while the task was being scheduled.
				disposeTask();
			}
		}

		private void acquire(MonoSink<ReactiveLockHandle> sink) {
			RedLockClient.Hold hold;
			try {
				hold = ReactiveRedLockClient.this.client.acquireForWork(this.lockKey, this.options, this.start);
			}
			catch (RuntimeException ex) {
				sink.error(ex);
				return;
			}
			if (hold == null) {
				sink.success();
				return;
			}
			ReactiveRedLockHandle handle = new ReactiveRedLockHandle(hold, this.options,
					ReactiveRedLockClient.this.scheduler);
			this.handingOn = Thread.currentThread();
			try {
				this.granted.set(handle);
				if (this.cancelled.get()) {
					handle.releaseQuietly();
					return;
				}
				sink.success(handle);
			}
			finally {
				this.handingOn = null;
			}
		}

		void cancel() {
			this.cancelled.set(true);
			ReactiveRedLockHandle handle = this.granted.get();
			if (handle == null) {
				// Interrupts an attempt in flight, which then releases it on every node.
				disposeTask();
			}
			else if (this.handingOn != Thread.currentThread()) {
				handle.releaseQuietly();
			}
		}

		private void disposeTask() {
			Disposable task = this.running.get();
			if (task != null) {
				task.dispose();
			}
		}

	}

}
