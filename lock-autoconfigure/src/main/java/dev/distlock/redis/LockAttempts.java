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

import org.jspecify.annotations.Nullable;

import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.wait.LockWaiter;

/**
 * The attempts of one acquisition: one owner token, tried until the lock is acquired, the
 * deadline passes or the thread is interrupted ({@link AttemptSender} sends each). A
 * caller that may wait begins its {@link LockWaiter.Wait} before the first attempt; if
 * the wait gives a hand-over channel, a failed attempt also takes a place in the lock's
 * queue, and a release may then hand the lock over during the wait, with no attempt of
 * its own.
 * <p>
 * A hand-over is accepted only while it can still be valid ({@link HandOverCheck}): the
 * release came after the last attempt that found the lock held, so its claim window
 * counts from that attempt's send. A hand-over at or below the fencing counter that an
 * attempt found is void (it came before that attempt, and has lapsed since), and one
 * whose claim window may have run out is checked in Redis by another attempt, as is a
 * grant whose reply came after its lease may have run out. Where replicas must
 * acknowledge grants, a hand-over is taken by another attempt, which confirms it in Redis
 * with a write that {@code WAIT} can count. An acquirer that gives up leaves the queue,
 * passing on a lock handed over in the meantime, and waits briefly for Redis to have done
 * so; an attempt whose outcome is unknown leaves it in the background.
 */
final class LockAttempts {

	private final AcquisitionServices services;

	private final QueueExit exit;

	private final AttemptSender sender;

	private final HandOverCheck handOvers;

	private final String key;

	private final String token;

	private final LockOptions options;

	private WaitingAcquirers.@Nullable Waiting waiting;

	LockAttempts(AcquisitionServices services, String key, String token, long leaseMillis, LockOptions options) {
		this.services = services;
		this.exit = new QueueExit(services.pending(), key, token, leaseMillis);
		this.sender = new AttemptSender(services, this.exit, key, token, leaseMillis, options);
		this.handOvers = new HandOverCheck(services.commands(), leaseMillis);
		this.key = key;
		this.token = token;
		this.options = options;
	}

	String token() {
		return this.token;
	}

	/**
	 * Tries until acquired or given up.
	 * @return the grant, or null if not acquired
	 * @throws LockUnavailableException if an attempt fails
	 * @throws LockMisconfigurationException if Redis refuses an attempt for a reason to
	 * fix
	 */
	@Nullable Grant acquire(LockWaiter waiter, long deadline) {
		if (System.nanoTime() - deadline >= 0) {
			AcquireReply reply = this.sender.attempt(null);
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = this.sender.granted(granted);
				if (!grant.hasRunOut()) {
					return grant;
				}
				// The reply came too late to trust the lock: let it go.
				this.exit.leave();
			}
			return null;
		}
		LockWaiter.Wait wait = waiter.begin(this.key, this.token);
		Grant grant = null;
		try {
			grant = attemptAndWait(wait, deadline);
			return grant;
		}
		finally {
			wait.close(grant != null);
			if (this.waiting != null) {
				this.services.waiting().stopped(this.waiting);
			}
		}
	}

	private @Nullable Grant attemptAndWait(LockWaiter.Wait wait, long deadline) {
		boolean queued = false;
		while (true) {
			String channel = wait.handOverChannel();
			queued |= channel != null;
			AcquireReply reply = this.sender.attempt(channel);
			if (reply == null) {
				break;
			}
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = this.sender.granted(granted);
				if (!grant.hasRunOut()) {
					return grant;
				}
				// The reply came after the lease may have run out (a pause, a slow
				// network): the next attempt checks in Redis whether it is still ours.
				if (System.nanoTime() - deadline >= 0) {
					this.exit.leave();
					return null;
				}
				continue;
			}
			AcquireReply.Held held = (AcquireReply.Held) reply;
			this.handOvers.foundHeld(held, this.sender.lastAttemptNanos());
			if (System.nanoTime() - deadline >= 0 || !await(wait, held, deadline)) {
				break;
			}
			Grant grant = this.handOvers.accept(wait.takeHandOver());
			if (grant != null && !this.services.commands().acknowledgement().isRequired()) {
				return grant;
			}
			// With replica acknowledgement, the next attempt confirms a hand-over in
			// Redis,
			// and its grant is acknowledged like any other. None, void, or too late to
			// trust: the next attempt finds out in Redis whether it is still ours.
		}
		if (queued) {
			this.exit.leave();
		}
		return null;
	}

	/**
	 * Waits after an attempt found the lock held; the first wait lists the caller as
	 * waiting (a caller that gets the lock at its first attempt never was).
	 */
	private boolean await(LockWaiter.Wait wait, AcquireReply.Held held, long deadline) {
		if (this.waiting == null) {
			this.waiting = this.services.waiting().started(this.key, this.options);
		}
		return wait.await(held.holderLeaseMillis(), deadline);
	}

}
