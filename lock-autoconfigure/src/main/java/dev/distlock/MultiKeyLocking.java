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
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Locks several keys one by one, all or nothing, in an order the caller fixes: each key
 * waits only for what is left of one deadline shared by all, and a key that is not
 * acquired in time, or fails, gives back the keys taken before it (in reverse,
 * {@link KeyLocker#giveBack}), so that the caller never holds some keys beyond the wait
 * time while it waits for the others. As long as every caller locks in the same global
 * order, callers locking overlapping sets of keys cannot deadlock. The default multi-key
 * methods of {@link LockClient} lock through it in the order of the keys' text; a client
 * may fix another order, as long as it is the same in every process.
 */
public final class MultiKeyLocking {

	private MultiKeyLocking() {
	}

	/**
	 * Returns the distinct keys of a call, sorted by their text: the order of the default
	 * multi-key methods of {@link LockClient}.
	 * @param keys the keys as the caller gave them
	 * @return the keys without duplicates, sorted
	 * @throws IllegalArgumentException if there are no keys or one is null
	 */
	public static List<String> sortedDistinct(Collection<String> keys) {
		check(keys);
		return keys.stream().distinct().sorted().toList();
	}

	/**
	 * Checks the keys of a call and the options: at least one key, no null key, and an
	 * exclusive lock.
	 * @param keys the keys as the caller gave them
	 * @param options the options of the call
	 * @throws IllegalArgumentException if there are no keys, one is null, or the options
	 * are those of a read-write lock or a semaphore
	 */
	public static void check(Collection<String> keys, LockOptions options) {
		check(keys);
		Assert.isTrue(!options.isShared(),
				() -> "Several keys are locked together as exclusive locks only, but " + "the options ask for mode "
						+ options.mode() + " with " + options.permits() + " permit(s): lock "
						+ "the keys of a read-write lock or a semaphore one at a time");
	}

	private static void check(Collection<String> keys) {
		Assert.notEmpty(keys, "At least one lock key is required");
		Assert.noNullElements(keys, () -> "Lock keys must not be null, were " + keys);
	}

	/**
	 * Locks the keys in the given order, waiting for all of them no longer than the
	 * options' wait time from the start.
	 * @param keysInOrder the distinct keys, in lock order
	 * @param options the options of every key; each key waits for what is left of the
	 * wait time
	 * @param startNanos when the wait time started, by {@link System#nanoTime()}
	 * @param locker locks one key
	 * @return the held keys, or empty if one was not acquired in time (nothing is held
	 * then)
	 * @throws RuntimeException what the locker threw, once the keys taken are released
	 */
	public static Optional<LockHandle> tryLock(List<String> keysInOrder, LockOptions options, long startNanos,
			KeyLocker locker) {
		return Optional.ofNullable(acquire(keysInOrder, options, startNanos, locker).handle());
	}

	/**
	 * Locks the keys in the given order, as {@link #tryLock} does, or throws.
	 * @param keysInOrder the distinct keys, in lock order
	 * @param options the options of every key
	 * @param startNanos when the wait time started, by {@link System#nanoTime()}
	 * @param locker locks one key
	 * @return the held keys
	 * @throws LockNotAcquiredException naming the first key that was not acquired in time
	 */
	public static LockHandle lock(List<String> keysInOrder, LockOptions options, long startNanos, KeyLocker locker) {
		Outcome outcome = acquire(keysInOrder, options, startNanos, locker);
		LockHandle handle = outcome.handle();
		if (handle == null) {
			throw locker.notAcquired(outcome.refusedKey(), options, startNanos);
		}
		return handle;
	}

	private static Outcome acquire(List<String> keysInOrder, LockOptions options, long startNanos, KeyLocker locker) {
		Assert.notEmpty(keysInOrder, "At least one lock key is required");
		long waitNanos = Deadlines.nanos(options.waitTime());
		List<LockHandle> taken = new ArrayList<>(keysInOrder.size());
		for (String key : keysInOrder) {
			Duration remaining = Duration.ofNanos(Math.max(0, waitNanos - (System.nanoTime() - startNanos)));
			Optional<LockHandle> hold;
			try {
				hold = locker.tryLock(key, options.withWaitTime(remaining));
			}
			catch (RuntimeException ex) {
				RuntimeException releaseFailure = locker.giveBack(taken);
				if (releaseFailure != null) {
					ex.addSuppressed(releaseFailure);
				}
				throw ex;
			}
			if (hold.isEmpty()) {
				locker.giveBack(taken);
				return new Outcome(null, key);
			}
			taken.add(hold.get());
		}
		for (LockHandle hold : taken) {
			if (hold.isLeaseLost()) {
				// A fixed lease ran out while a later key was awaited: not all are held.
				locker.giveBack(taken);
				return new Outcome(null, hold.key());
			}
		}
		return new Outcome(new MultiLockHandle(taken), "");
	}

	/**
	 * Locks one key of several.
	 */
	@FunctionalInterface
	public interface KeyLocker {

		/**
		 * Tries to lock one key, as {@link LockClient#tryLock(String, LockOptions)}.
		 * @param key the key
		 * @param options the options, with what is left of the wait time
		 * @return the hold, or empty if not acquired in time
		 */
		Optional<LockHandle> tryLock(String key, LockOptions options);

		/**
		 * Lets go of the keys taken for a call whose other keys were not all acquired, in
		 * the reverse of lock order. The work never ran, so a lease found lost on the
		 * way, or a release retried in the background, changes nothing for the caller. By
		 * default each key is released; a locker whose release may wait for a server that
		 * stopped answering lets them go without waiting instead, so that the call ends
		 * within its wait time and one command timeout.
		 * @param taken the keys taken, in lock order
		 * @return the first failure to release one (any others suppressed in it), null if
		 * none, or if they are released in the background
		 */
		default @Nullable RuntimeException giveBack(List<LockHandle> taken) {
			return MultiLockHandle.releaseAll(taken);
		}

		/**
		 * Returns the exception of a call that ended without a key: by default, that
		 * another holder kept it beyond the wait time. A locker that knows better, such
		 * as that the key's grant came too late to trust, says so instead.
		 * @param key the key that was not acquired
		 * @param options the options of the call, with its whole wait time
		 * @param startNanos when the wait time started, by {@link System#nanoTime()}
		 * @return the exception to throw
		 */
		default LockNotAcquiredException notAcquired(String key, LockOptions options, long startNanos) {
			return new LockNotAcquiredException(key, options.name(), options.waitTime(),
					Duration.ofNanos(System.nanoTime() - startNanos));
		}

	}

	/**
	 * The keys held, or the key that was not acquired.
	 */
	private record Outcome(@Nullable LockHandle handle, String refusedKey) {

	}

}
