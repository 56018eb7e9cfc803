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
import java.util.Collection;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Acquires distributed locks programmatically; the same client backs
 * {@link DistributedLock @DistributedLock}. The auto-configured bean can be injected, and
 * replaced by defining a bean of this type. <pre class="code">
 * try (LockHandle lock = lockClient.lock("lock:sku:25")) {
 *     // only one holder of lock:sku:25 across all instances runs here
 * }
 * </pre> Keys are used as given, after the configured {@code distlock.key-prefix}.
 * Several keys can be locked together, all or nothing
 * ({@link #lock(Collection, LockOptions)}).
 */
public interface LockClient {

	/**
	 * Returns the options used where a call gives none: {@code distlock.wait-time} and
	 * {@code distlock.lease-time}.
	 * @return the default options
	 */
	LockOptions defaultOptions();

	/**
	 * Returns the options of locks of one name: the {@linkplain #defaultOptions() default
	 * options} with the values configured for the name ({@code distlock.locks.<name>.*})
	 * in their place. Calls use the options they are given as they are, so this is how a
	 * programmatic call takes a name's configured values; what the caller changes on them
	 * is explicit and wins: <pre class="code">
	 * lockClient.lock(key, lockClient.defaultOptions("report").withWaitTime(Duration.ZERO));
	 * </pre> A client that wraps another must delegate this method too; by default it
	 * only names the default options. The advisor of {@code @DistributedLock} asks once
	 * per locked method and keeps the answer, so the options of a name must not change
	 * once the client is built.
	 * @param name the logical name of the lock
	 * @return the options of locks of that name, with that name
	 */
	default LockOptions defaultOptions(String name) {
		return defaultOptions().withName(name);
	}

	/**
	 * Tries to acquire the lock, waiting up to the options' wait time while another
	 * holder has it. If the calling thread is interrupted while waiting, it returns empty
	 * with the interrupt flag set.
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @return the held lock, or empty if it was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	Optional<LockHandle> tryLock(String key, LockOptions options);

	/**
	 * Acquires the lock or throws, waiting up to the options' wait time.
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @return the held lock, to be released by {@link LockHandle#close()}
	 * @throws LockNotAcquiredException if the lock was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	LockHandle lock(String key, LockOptions options);

	/**
	 * Tries to acquire the lock with the given wait and lease times.
	 * @param key the lock key
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime how long the lease lasts
	 * @return the held lock, or empty if it was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	default Optional<LockHandle> tryLock(String key, Duration waitTime, Duration leaseTime) {
		return tryLock(key, new LockOptions(waitTime, leaseTime));
	}

	/**
	 * Tries to acquire the lock with the {@linkplain #defaultOptions() default options}.
	 * @param key the lock key
	 * @return the held lock, or empty if it was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	default Optional<LockHandle> tryLock(String key) {
		return tryLock(key, defaultOptions());
	}

	/**
	 * Acquires the lock with the {@linkplain #defaultOptions() default options} or
	 * throws.
	 * @param key the lock key
	 * @return the held lock
	 * @throws LockNotAcquiredException if the lock was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	default LockHandle lock(String key) {
		return lock(key, defaultOptions());
	}

	/**
	 * Runs the action while holding the lock and returns its result; the lock is released
	 * when the action returns or throws.
	 * @param <T> the result type
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @param action the work to run under the lock
	 * @return what the action returned
	 * @throws LockNotAcquiredException if the lock was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 * @throws LockLeaseLostException if the action succeeded but the lease had expired
	 * before the release, so the action may not have run alone
	 */
	default <T> T execute(String key, LockOptions options, Supplier<T> action) {
		try (LockHandle handle = lock(key, options)) {
			return action.get();
		}
	}

	/**
	 * Runs the action while holding the lock, with the {@linkplain #defaultOptions()
	 * default options}.
	 * @param <T> the result type
	 * @param key the lock key
	 * @param action the work to run under the lock
	 * @return what the action returned
	 * @throws LockNotAcquiredException if the lock was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 * @throws LockLeaseLostException if the lease had expired before the release
	 */
	default <T> T execute(String key, Supplier<T> action) {
		return execute(key, defaultOptions(), action);
	}

	/**
	 * Runs the action while holding the lock.
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @param action the work to run under the lock
	 * @throws LockNotAcquiredException if the lock was not acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if the key is blank, too long, or in distlock's
	 * reserved namespace
	 * @throws LockLeaseLostException if the lease had expired before the release
	 */
	default void run(String key, LockOptions options, Runnable action) {
		try (LockHandle handle = lock(key, options)) {
			action.run();
		}
	}

	/**
	 * Tries to acquire the locks of several keys together, all or nothing, waiting up to
	 * the options' wait time for all of them: <pre class="code">
	 * try (LockHandle locks = lockClient.lock(List.of("lock:account:" + from, "lock:account:" + to), options)) {
	 *     long fence = locks.fencingToken("lock:account:" + from);
	 * }
	 * </pre> Duplicate keys are locked once. The keys are locked in one fixed order,
	 * whatever the order given, the same in every process, so that callers locking the
	 * same keys in opposite orders cannot deadlock; each key waits for what is left of
	 * the wait time, and when one is not acquired in time the keys taken before it are
	 * released, so the caller never holds some keys beyond the wait time. Each key has
	 * its own lease and {@linkplain LockHandle#fencingToken(String) fencing token}.
	 * Exclusive locks only.
	 * <p>
	 * By default the keys are locked one by one with
	 * {@link #tryLock(String, LockOptions)}, in the order of their text
	 * ({@link MultiKeyLocking}); a client may lock them otherwise, for example all at
	 * once while they are free.
	 * @param keys the lock keys, at least one
	 * @param options how long to wait for all the keys, and how long each lease lasts
	 * @return the held locks, a {@link MultiLockHandle} released all together, or empty
	 * if not all were acquired within the wait time (none is held then)
	 * @throws IllegalArgumentException if there is no key, a key is null, or the options
	 * are {@linkplain LockOptions#isShared() shared}
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if a key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	default Optional<LockHandle> tryLock(Collection<String> keys, LockOptions options) {
		MultiKeyLocking.check(keys, options);
		return MultiKeyLocking.tryLock(MultiKeyLocking.sortedDistinct(keys), options, System.nanoTime(), this::tryLock);
	}

	/**
	 * Acquires the locks of several keys together, all or nothing, or throws; see
	 * {@link #tryLock(Collection, LockOptions)}.
	 * @param keys the lock keys, at least one
	 * @param options how long to wait for all the keys, and how long each lease lasts
	 * @return the held locks, a {@link MultiLockHandle} released all together
	 * @throws LockNotAcquiredException naming a key that was not acquired within the wait
	 * time (none is held then)
	 * @throws IllegalArgumentException if there is no key, a key is null, or the options
	 * are {@linkplain LockOptions#isShared() shared}
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if a key is blank, too long, or in distlock's
	 * reserved namespace
	 */
	default LockHandle lock(Collection<String> keys, LockOptions options) {
		MultiKeyLocking.check(keys, options);
		return MultiKeyLocking.lock(MultiKeyLocking.sortedDistinct(keys), options, System.nanoTime(), this::tryLock);
	}

	/**
	 * Runs the action while holding the locks of several keys, all or nothing (see
	 * {@link #tryLock(Collection, LockOptions)}), and returns its result; the locks are
	 * released when the action returns or throws.
	 * @param <T> the result type
	 * @param keys the lock keys, at least one
	 * @param options how long to wait for all the keys, and how long each lease lasts
	 * @param action the work to run under the locks
	 * @return what the action returned
	 * @throws LockNotAcquiredException if not all keys were acquired within the wait time
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws InvalidLockKeyException if a key is blank, too long, or in distlock's
	 * reserved namespace
	 * @throws LockLeaseLostException if the action succeeded but a key's lease had
	 * expired before the release
	 */
	default <T> T execute(Collection<String> keys, LockOptions options, Supplier<T> action) {
		try (LockHandle handle = lock(keys, options)) {
			return action.get();
		}
	}

}
