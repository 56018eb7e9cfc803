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

import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.protocol.ReactiveLockCommands;

/**
 * A lock held by reactive work: a {@link RedisLockHandle} that belongs to no thread
 * (registered, renewed and watched like any other hold of the client), released when its
 * work ends, without blocking: the hold ends, stops being renewed and is forgotten at
 * once, then the owner-checked release runs on the reactive connection (one script that
 * deletes the key if it holds the owner token alone, or, while anyone waits, the release
 * script, which hands the lock over:
 * {@link ReactiveLockCommands#release(String, String, String, long)}), and the client's
 * {@link LockReleaser} reports what it did, as for a blocking hold. A release that cannot
 * reach Redis, or that its caller cancels before Redis answered, is retried in the
 * background (with what is left of the minimum hold at each attempt), and signalled as a
 * {@link dev.distlock.LockUnavailableException}; a lease found lost as a
 * {@link dev.distlock.LockLeaseLostException}. When its lease is marked lost (by renewal,
 * by its local deadline, or by a forced release), {@link #leaseLost()} completes. A
 * handle that becomes unreachable unreleased is no longer renewed, as a blocking hold
 * whose thread died.
 */
final class ReactiveRedisLockHandle implements ReactiveLockHandle {

	private static final Cleaner ABANDONED = Cleaner.create();

	private final RedisLockHandle hold;

	private final LockReleaser releaser;

	private final LeaseExtension extension;

	private final ReactiveLockCommands commands;

	private final AtomicBoolean released = new AtomicBoolean();

	private final Sinks.Empty<Void> lost = Sinks.empty();

	private final Cleaner.Cleanable abandoned;

	/** Returns the options the hold was acquired with. */
	LockOptions options() {
		return this.hold.options();
	}

	ReactiveRedisLockHandle(RedisLockHandle hold, LockReleaser releaser, LeaseExtension extension,
			ReactiveLockCommands commands) {
		this.hold = hold;
		this.releaser = releaser;
		this.extension = extension;
		this.commands = commands;
		AtomicBoolean released = this.released;
		// A handle that an operator dropped (zip, timeout, ...) can never be released:
		// once unreachable, it is no longer renewed and expires with its lease.
		this.abandoned = ABANDONED.register(this, () -> {
			if (released.compareAndSet(false, true)) {
				releaser.abandoned(hold);
			}
		});
		// Told on a parallel thread: the renewal thread that marks the lease lost must
		// never run the work's cancellation.
		Sinks.Empty<Void> signal = this.lost;
		hold.onLeaseLost(() -> Schedulers.parallel().schedule(signal::tryEmitEmpty));
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

	@Override
	public Mono<Void> extend(Duration leaseTime) {
		return Mono.defer(() -> {
			LeaseExtension extension = this.extension;
			RuntimeException refusal = extension.refusal(this.hold, leaseTime, this.released.get());
			if (refusal != null) {
				return Mono.error(refusal);
			}
			long sent = extension.sending(this.hold, leaseTime);
			// Its answer or its loss (an error, a cancellation), whichever comes first,
			// and only that one, counts.
			AtomicBoolean settled = new AtomicBoolean();
			Runnable unanswered = () -> {
				if (settled.compareAndSet(false, true)) {
					this.hold.extensionUnanswered(sent, leaseTime);
				}
			};
			return this.commands.renew(this.hold.key(), this.hold.token(), leaseTime.toMillis())
				.doOnError((ex) -> unanswered.run())
				.onErrorMap(DataAccessException.class, (ex) -> extension.unavailable(this.hold, ex))
				.doOnNext((reply) -> {
					if (settled.compareAndSet(false, true)) {
						extension.applyReply(this.hold, sent, leaseTime, reply);
					}
				})
				// Cancelled before the answer: Redis may run it all the same.
				.doOnCancel(unanswered)
				.then();
		});
	}

	@Override
	public Mono<Void> release() {
		return Mono.defer(() -> {
			if (!this.released.compareAndSet(false, true)) {
				return Mono.empty();
			}
			this.abandoned.clean();
			RedisLockHandle hold = this.hold;
			hold.exit();
			Duration heldFor = this.releaser.forgetEnded(hold);
			long keep = hold.minimumHold().remainingMillis();
			return this.commands.release(hold.key(), hold.name(), hold.token(), keep)
				.onErrorMap(DataAccessException.class, (ex) -> this.releaser.releaseLater(hold, heldFor, ex))
				.flatMap((outcome) -> {
					LockLeaseLostException lost = this.releaser.releasedInRedis(hold, heldFor, outcome, keep);
					return (lost != null) ? Mono.<Void>error(lost) : Mono.<Void>empty();
				})
				// A release that its subscriber cancels before Redis answered is retried
				// in the background. Last, since flatMap cancels its source when it
				// signals a lost lease, after the answer: no reason to release again.
				.doOnCancel(() -> this.releaser.retryInBackground(hold));
		});
	}

	@Override
	public String toString() {
		return "ReactiveLockHandle[name=" + name() + ", key=" + key() + ", fencingToken=" + fencingToken()
				+ ", leaseTime=" + leaseTime() + ", autoRenewing=" + isAutoRenewing() + ", released=" + isReleased()
				+ "]";
	}

}
