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

package dev.distlock.reactive;

import java.time.Duration;

import reactor.core.publisher.Mono;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;

/**
 * A lock held by reactive work rather than by a thread. It is identified by its owner
 * token alone, so any thread may use and release it. Release it exactly once, with
 * {@link #release()}; {@link ReactiveLockClient#withLock withLock} does so however the
 * work ends.
 */
public interface ReactiveLockHandle {

	/**
	 * Returns the Redis key of the lock, including the configured prefix.
	 * @return the key
	 */
	String key();

	/**
	 * Returns the logical name of the lock, the tag of its meters.
	 * @return the name, {@link LockOptions#UNNAMED} if none was given
	 */
	String name();

	/**
	 * Returns the lease this lock was acquired with; for an auto-renewing lock, the lease
	 * each renewal extends it to.
	 * @return the lease time
	 */
	Duration leaseTime();

	/**
	 * Returns whether the lease is renewed automatically until the lock is released.
	 * @return whether the lease is auto-renewing
	 */
	boolean isAutoRenewing();

	/**
	 * Returns the fencing token of this grant, as
	 * {@link dev.distlock.LockHandle#fencingToken()}.
	 * @return the fencing token, at least 1
	 */
	long fencingToken();

	/**
	 * Returns whether this hold's lease is lost, as
	 * {@link dev.distlock.LockHandle#isLeaseLost()}: found lost, or run out by this
	 * process's conservative count.
	 * @return whether the lease was lost
	 */
	boolean isLeaseLost();

	/**
	 * Returns whether {@link #release()} has been subscribed to.
	 * @return whether the lock was released
	 */
	boolean isReleased();

	/**
	 * Extends the lease of a lock held with a fixed lease time, without blocking: sets
	 * the time Redis keeps the lock to the given duration from now, as
	 * {@link dev.distlock.LockHandle#extend(Duration)} does, with the same rules (an
	 * owner-checked write; the local count moves only on Redis's confirmation, from the
	 * time the extension was sent). Each subscription sends one extension; do not
	 * subscribe to two extensions of one hold at the same time.
	 * @param leaseTime how long the lock is to be kept from now, at least 1 ms
	 * @return completes once Redis extended the lease; errors with
	 * {@link IllegalArgumentException} if the lease time is shorter than 1 ms,
	 * {@link IllegalStateException} if the handle was released or its lease is
	 * auto-renewing, {@link LockLeaseLostException} if the lease was lost first (the lock
	 * is no longer held), or {@link dev.distlock.LockUnavailableException} if Redis could
	 * not be reached (the lease may or may not have been extended; the local count stays
	 * where it was), or {@link dev.distlock.LockMisconfigurationException} if Redis
	 * refused the command for a misconfiguration
	 */
	Mono<Void> extend(Duration leaseTime);

	/**
	 * Signals when the lease is lost while the lock is held: completes, on a parallel
	 * thread, once the client marks it lost (a renewal or hand-over confirmation that
	 * finds the key gone, the local deadline of the lease passing, a forced release), at
	 * once if it already has; never otherwise. {@link ReactiveLockClient#withLock
	 * withLock} ends the work with a {@link LockLeaseLostException} when it does.
	 * @return the signal
	 */
	Mono<Void> leaseLost();

	/**
	 * Releases the lock if Redis still holds it for this acquisition, without blocking;
	 * only the first subscription releases, later ones complete at once.
	 * @return completes when Redis released the lock; errors with
	 * {@link LockLeaseLostException} if the lease had been lost, or
	 * {@link dev.distlock.LockUnavailableException} if Redis could not be reached (the
	 * release is then retried in the background)
	 */
	Mono<Void> release();

}
