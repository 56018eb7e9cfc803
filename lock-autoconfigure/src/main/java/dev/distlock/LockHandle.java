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

package dev.distlock;

import java.time.Duration;
import java.util.List;

import io.micrometer.observation.Observation;

/**
 * A lock held by this process. Release it exactly once, normally with try-with-resources;
 * further calls to {@link #release()} do nothing.
 * <p>
 * Release deletes the key only if it still holds this acquisition's token (an atomic
 * compare-and-delete in Redis), so a holder whose lease expired can never delete the lock
 * of the next holder. Such a late release is reported with a
 * {@link LockLeaseLostException}.
 */
public interface LockHandle extends AutoCloseable {

	/**
	 * Returns the Redis key of the lock, including the configured prefix.
	 * @return the key
	 */
	String key();

	/**
	 * Returns the Redis keys of every lock this handle holds, including the configured
	 * prefix, in the order they were locked: one key for a lock of one key, several for a
	 * {@link MultiLockHandle}.
	 * @return the keys, the first being {@link #key()}
	 */
	default List<String> keys() {
		return List.of(key());
	}

	/**
	 * Returns the logical name of the lock, the tag of its meters: the
	 * {@link DistributedLock#name() name} of an annotated method or the
	 * {@link LockOptions#name() name} of the options it was acquired with.
	 * @return the name, {@link LockOptions#UNNAMED} if none was given
	 */
	default String name() {
		return LockOptions.UNNAMED;
	}

	/**
	 * Returns how the lock is shared: {@link LockMode#EXCLUSIVE}, or the read or write
	 * side of a read-write lock, as the {@link LockOptions#mode() options} of its
	 * acquisition asked.
	 * @return the mode, {@link LockMode#EXCLUSIVE} unless the hold says otherwise
	 */
	default LockMode mode() {
		return LockMode.EXCLUSIVE;
	}

	/**
	 * Returns how many holders the key admits at once: more than 1 for one permit of a
	 * semaphore, as the {@link LockOptions#permits() options} of its acquisition asked.
	 * @return the permits of the key, 1 unless the hold says otherwise
	 */
	default int permits() {
		return 1;
	}

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
	 * Returns the fencing token of this grant: a number that increases strictly with
	 * every grant of the same key, across all clients. Pass it to the resource the lock
	 * protects and let it reject writes carrying a smaller token than it has seen (for
	 * example {@code UPDATE ... WHERE fence < :token}), so that a holder whose lease
	 * expired while it was paused cannot overwrite the work of the next holder.
	 * Re-entrant acquisitions share the token of the outermost one. Tokens are not
	 * consecutive: other keys draw from the same counter, and a lock passed between
	 * threads of one client takes tokens from a block its grant reserved. Compare them,
	 * never count on the step.
	 * <p>
	 * A store may issue the token when it is first asked for rather than with the grant:
	 * the Redis store acquires a free lock that nobody waits for with one plain
	 * {@code SET NX PX}, and issues its token on the first call here, with one round trip
	 * that succeeds only while the lock is still held with this grant. Tokens then still
	 * increase in the order of the holds that use them. Ask while holding the lock.
	 * @return the fencing token, at least 1
	 * @throws LockLeaseLostException if the token had not been issued yet and the lock is
	 * no longer held (its lease ran out or its key is gone)
	 * @throws LockUnavailableException if the token had not been issued yet and the store
	 * does not answer
	 * @throws IllegalStateException if the token had not been issued yet and the handle
	 * was released
	 */
	long fencingToken();

	/**
	 * Returns the fencing token of one of the keys this handle holds; for a lock of
	 * several keys ({@link LockClient#lock(java.util.Collection, LockOptions)}), each key
	 * has its own. The key is compared as {@link #keys()} reports it: with the configured
	 * {@code distlock.key-prefix}, which is empty by default.
	 * @param key one of the {@link #keys()}
	 * @return the fencing token of that key
	 * @throws IllegalArgumentException if this handle does not hold the key
	 */
	default long fencingToken(String key) {
		if (key().equals(key)) {
			return fencingToken();
		}
		throw HeldKeys.notHeld(key, keys());
	}

	/**
	 * Returns whether this hold's lease is lost: found lost (expired, taken over,
	 * force-released), or run out by this process's own count. The count is conservative:
	 * it runs from the send time of the last acquire or renewal that Redis confirmed, for
	 * the lease minus a drift margin, so it turns true no later than Redis can have
	 * expired the key, whether or not a renewal has failed yet. Once lost, the lock no
	 * longer excludes others.
	 * @return whether the lease was lost
	 */
	boolean isLeaseLost();

	/**
	 * Extends the lease of a lock held with a fixed lease time: sets the time Redis keeps
	 * the lock to the given duration from now, as ShedLock's
	 * {@code ExtensibleLockProvider} does. A duration shorter than what is left shortens
	 * the lease. For long work that chose a fixed lease and finds it needs more time.
	 * <p>
	 * The extension is the owner-checked write a renewal sends: Redis extends the lease
	 * only if the key still holds this acquisition's token, and where replicas must
	 * acknowledge grants ({@code distlock.replication.min-replicas-acked}) the extension
	 * is acknowledged as a renewal is. The local count ({@link #isLeaseLost()}) moves
	 * only when Redis confirmed it, and runs from the time the extension was sent for the
	 * given duration minus the drift margin, as after a renewal. {@link #leaseTime()}
	 * still reports the lease of the acquisition. A re-entrant hold extends the lock it
	 * shares; a lock of several keys extends each key in lock order, and stops at the
	 * first that fails (keys already extended keep their new lease). The reader side of a
	 * read-write lock, the writer side and a permit of a semaphore extend their own hold
	 * only. Extensions of one hold are applied one at a time.
	 * @param leaseTime how long the lock is to be kept from now, at least 1 ms
	 * @throws IllegalArgumentException if the lease time is shorter than 1 ms
	 * @throws IllegalStateException if this handle was released, or if its lease is
	 * auto-renewing (renewal keeps it extended while it is held)
	 * @throws LockLeaseLostException if the lease was lost first: found lost, run out by
	 * the local count, or the key no longer held this acquisition's token when Redis got
	 * the extension. The lock is no longer held.
	 * @throws ReplicaAcknowledgementException if fewer replicas acknowledged the
	 * extension than must: the master extended the lease, but the local count stays where
	 * it was
	 * @throws LockUnavailableException if Redis could not be reached
	 * ({@link LockUnavailableException#getOperation()} is
	 * {@value LockUnavailableException#EXTEND}): the lease may or may not have been
	 * extended, and the local count stays where it was
	 * @throws LockMisconfigurationException if Redis refused the command for a
	 * misconfiguration (a missing permission, wrong credentials), saying what to fix
	 */
	void extend(Duration leaseTime);

	/**
	 * Runs an action once when this hold's lease is found lost (by a renewal that finds
	 * the key gone or taken, by the local count running out, or by a forced release), on
	 * the thread that finds it, at once if it already was; for integrations that stop
	 * work when its lease is lost. The action must be quick and must not throw. Holds
	 * that never find their lease lost by themselves (the default, such as in-memory
	 * holds, which only count it) never run it; {@link #isLeaseLost()} is always right.
	 * @param action what to run
	 * @return the watch, to close once the action is no longer wanted
	 */
	default LeaseLossWatch whenLeaseLost(Runnable action) {
		return () -> {
		};
	}

	/**
	 * Returns whether {@link #release()} has been called.
	 * @return whether the lock was released
	 */
	boolean isReleased();

	/**
	 * Returns the observation of this hold, from its acquisition until its release
	 * ({@code distlock.hold}, see
	 * {@link dev.distlock.observation.LockObservationDocumentation#HOLD}). The
	 * {@link DistributedLock @DistributedLock} advisor makes it the current observation
	 * while the method runs, so that the spans of the work done under the lock are its
	 * children; programmatic callers can do the same with {@code try (Observation.Scope
	 * scope = handle.observation().openScope()) { ... }}. The client stops it on release.
	 * @return the observation, a no-op one for a re-entrant hold or a client that
	 * observes nothing
	 */
	default Observation observation() {
		return Observation.NOOP;
	}

	/**
	 * Releases the lock if Redis still holds it for this acquisition.
	 * @throws LockLeaseLostException if the lease had already expired (the key was gone
	 * or held by someone else), so the work done under the lock may have overlapped with
	 * another holder
	 * @throws LockUnavailableException if Redis cannot be reached; the lock then expires
	 * with its lease
	 */
	void release();

	/**
	 * Same as {@link #release()}.
	 */
	@Override
	default void close() {
		release();
	}

	/**
	 * A registration of {@link #whenLeaseLost(Runnable)}.
	 */
	@FunctionalInterface
	interface LeaseLossWatch extends AutoCloseable {

		/**
		 * Stops watching: the action is not run after this returns.
		 */
		@Override
		void close();

	}

}
