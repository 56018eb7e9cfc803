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

package dev.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockMode;
import dev.distlock.LockNotAcquiredException;

/**
 * The lock a worker's {@code hold} and {@code contend} commands take, named by one word:
 * distlock's kinds through the {@link LockClient} bean ({@code distlock} an exclusive
 * lock, {@code read}, {@code write}, {@code permits:<n>}) or the naive locks of the
 * controls ({@code blog}, {@code naive-read}, {@code naive-write},
 * {@code naive-permits:<n>}). Several keys, given as {@code a,b}, are taken all or
 * nothing by distlock and in the given order by the blog lock.
 */
interface WorkerLock {

	/**
	 * Takes the lock, waiting up to the wait time.
	 * @param keys the keys, one unless the lock takes several
	 * @param lease the lease, or {@code null} to renew it (the naive locks take 30 s)
	 * @param wait how long to wait
	 * @return the hold
	 * @throws LockNotAcquiredException if not taken in time
	 */
	Held take(List<String> keys, @Nullable Duration lease, Duration wait);

	/**
	 * Whether the holds of this lock exclude every other hold of their key.
	 * @return {@code false} for readers and permits
	 */
	boolean exclusive();

	/**
	 * Returns the lock a command word names.
	 * @param word {@code distlock}, {@code read}, {@code write}, {@code permits:<n>},
	 * {@code blog}, {@code naive-read}, {@code naive-write} or {@code naive-permits:<n>}
	 * @param client the worker's lock client
	 * @param redis the worker's template, for the naive locks
	 * @return the lock
	 */
	static WorkerLock named(String word, LockClient client, StringRedisTemplate redis) {
		String[] parts = word.split(":");
		return switch (parts[0]) {
			case "distlock" -> new DistlockWorkerLock(client, LockMode.EXCLUSIVE, 1);
			case "read" -> new DistlockWorkerLock(client, LockMode.READ, 1);
			case "write" -> new DistlockWorkerLock(client, LockMode.WRITE, 1);
			case "permits" -> new DistlockWorkerLock(client, LockMode.EXCLUSIVE, Integer.parseInt(parts[1]));
			case "blog" -> new BlogLock(redis, Duration.ofSeconds(30));
			case "naive-read" -> new NaiveReadWriteLock(redis, false);
			case "naive-write" -> new NaiveReadWriteLock(redis, true);
			case "naive-permits" -> new NaiveSemaphore(redis, Integer.parseInt(parts[1]));
			default -> throw new IllegalArgumentException("Unknown lock " + word);
		};
	}

	/**
	 * Spins every 5 ms until the attempt succeeds or the wait time passes.
	 * @param key the key, for the exception
	 * @param wait how long to wait
	 * @param attempt one attempt
	 * @throws LockNotAcquiredException if it never succeeded in time
	 */
	static void spin(String key, Duration wait, BooleanSupplier attempt) {
		long start = System.nanoTime();
		while (!attempt.getAsBoolean()) {
			if (System.nanoTime() - start > wait.toNanos()) {
				throw new LockNotAcquiredException(key, "naive", wait, Duration.ofNanos(System.nanoTime() - start));
			}
			Pause.millis(5);
		}
	}

	/**
	 * One hold of a {@link WorkerLock}.
	 */
	interface Held {

		/**
		 * The fencing token of a key (0 where the lock gives none).
		 * @param key the key
		 * @return the token
		 */
		long token(String key);

		/**
		 * Whether the holder knows its lease is lost (the naive locks never do).
		 * @return whether the lease is lost
		 */
		boolean isLeaseLost();

		/**
		 * Whether the hold was released.
		 * @return whether released
		 */
		boolean isReleased();

		/** Releases the hold. */
		void release();

	}

}
