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

import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.support.LeaseExtensionRules;

/**
 * A RedLock hold of reactive work: a {@link RedLockClient} hold that belongs to no
 * thread, renewed and listed like any other, released and extended on the reactive
 * client's scheduler. {@link #leaseLost()} completes, on a parallel thread, when the hold
 * is found lost: by the renewal (a majority no longer holds it), by an extension, or by
 * its validity running out, which a timer at the end of the validity checks. A handle
 * that becomes unreachable unreleased (dropped by an operator) is released in the
 * background.
 */
final class ReactiveRedLockHandle implements ReactiveLockHandle {

	private static final Log logger = LogFactory.getLog(ReactiveRedLockHandle.class);

	private static final Cleaner ABANDONED = Cleaner.create();

	private final RedLockClient.Hold hold;

	private final LockOptions options;

	private final Scheduler scheduler;

	private final AtomicBoolean released = new AtomicBoolean();

	/**
	 * The generation of the timer that watches the validity: a timer of an older one
	 * stops.
	 */
	private final AtomicInteger validityWatch = new AtomicInteger();

	private final Sinks.Empty<Void> lost = Sinks.empty();

	private final Cleaner.Cleanable abandoned;

	ReactiveRedLockHandle(RedLockClient.Hold hold, LockOptions options, Scheduler scheduler) {
		this.hold = hold;
		this.options = options;
		this.scheduler = scheduler;
		AtomicBoolean released = this.released;
		// Neither action refers to this handle, which could then never become
		// unreachable.
		this.abandoned = ABANDONED.register(this, () -> {
			if (released.compareAndSet(false, true)) {
				release(hold, scheduler);
			}
		});
		// Told on a parallel thread: the thread that finds the hold lost (a reply's
		// event loop, the renewal) must never run the work's cancellation.
		Sinks.Empty<Void> signal = this.lost;
		hold.onLeaseLost(() -> Schedulers.parallel().schedule(signal::tryEmitEmpty));
		watchValidity(hold, released, this.validityWatch, this.validityWatch.get());
	}

	/**
	 * Checks the hold once its validity should have run out, again at the end of a
	 * validity moved later by renewals or extensions meanwhile, until it is lost or
	 * released, or a newer timer of the given generation took over (after an extension
	 * moved the validity earlier).
	 */
	private static void watchValidity(RedLockClient.Hold hold, AtomicBoolean released, AtomicInteger watch,
			int generation) {
		long left = Math.max(0, hold.validUntilNanos() - System.nanoTime());
		Schedulers.parallel().schedule(() -> {
			if (watch.get() == generation && !released.get() && !hold.isLeaseLost()) {
				watchValidity(hold, released, watch, generation);
			}
		}, left + 1, TimeUnit.NANOSECONDS);
	}

	/** Returns the options the hold was acquired with. */
	LockOptions options() {
		return this.options;
	}

	@Override
	public String key() {
		return this.hold.key();
	}

	@Override
	public String name() {
		return this.hold.name();
	}

	@Override
	public Duration leaseTime() {
		return this.hold.leaseTime();
	}

	@Override
	public boolean isAutoRenewing() {
		return this.hold.isAutoRenewing();
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken();
	}

	@Override
	public boolean isLeaseLost() {
		return this.hold.isLeaseLost();
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	@Override
	public Mono<Void> leaseLost() {
		return this.lost.asMono();
	}

	/**
	 * Extends the lease on every node, as {@link RedLockClient}'s holds do: the validity
	 * moves later only when a majority confirmed, counted from the send time, and earlier
	 * (a shorter lease) at the send, whatever the answers; a validity moved earlier is
	 * watched from its new end.
	 */
	@Override
	public Mono<Void> extend(Duration leaseTime) {
		return Mono.defer(() -> {
			RuntimeException refusal = LeaseExtensionRules.refusal(this.hold, leaseTime, this.released.get(),
					this.hold.heldFor());
			if (refusal != null) {
				return Mono.error(refusal);
			}
			return Mono.<Void>fromRunnable(() -> {
				long validUntil = this.hold.validUntilNanos();
				try {
					this.hold.extend(leaseTime);
				}
				finally {
					if (this.hold.validUntilNanos() - validUntil < 0) {
						watchValidity(this.hold, this.released, this.validityWatch,
								this.validityWatch.incrementAndGet());
					}
				}
			}).subscribeOn(this.scheduler);
		});
	}

	/**
	 * Releases on every node, on the scheduler, to the end even if the subscriber
	 * cancels; unknown outcomes are retried in the background by the RedLock client.
	 * @return completes once a majority answered; errors with
	 * {@link dev.distlock.LockLeaseLostException} if the validity had run out, or
	 * {@link dev.distlock.LockUnavailableException} if no majority answered
	 */
	@Override
	public Mono<Void> release() {
		return Mono.defer(() -> {
			if (!this.released.compareAndSet(false, true)) {
				return Mono.empty();
			}
			this.abandoned.clean();
			return Mono.fromFuture(release(this.hold, this.scheduler), true);
		});
	}

	/** Releases a hold that no subscriber waits for: of a cancelled acquisition. */
	void releaseQuietly() {
		if (this.released.compareAndSet(false, true)) {
			this.abandoned.clean();
			release(this.hold, this.scheduler);
		}
	}

	private static CompletableFuture<Void> release(RedLockClient.Hold hold, Scheduler scheduler) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		Runnable release = () -> {
			try {
				hold.release();
				done.complete(null);
			}
			catch (RuntimeException ex) {
				done.completeExceptionally(ex);
			}
		};
		try {
			scheduler.schedule(release);
		}
		catch (RejectedExecutionException ex) {
			// The client is closing: release on this thread rather than not at all.
			logger.debug("Releasing " + hold.key() + " on the calling thread: the scheduler is closed");
			release.run();
		}
		return done;
	}

	@Override
	public String toString() {
		return "ReactiveLockHandle[RedLock, name=" + name() + ", key=" + key() + ", fencingToken=" + fencingToken()
				+ ", leaseTime=" + leaseTime() + ", autoRenewing=" + isAutoRenewing() + ", released=" + isReleased()
				+ "]";
	}

}
