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
import java.util.Optional;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

import static org.awaitility.Awaitility.await;

/**
 * Lock calls the scenarios repeat: acquiring while Redis may still be coming back,
 * watching for a lost lease, releasing a hold that may be stale.
 */
final class LockCalls {

	private LockCalls() {
	}

	/**
	 * Acquires, retrying failed attempts for up to 15 s (Redis may be restarting).
	 * @param client the client
	 * @param key the key
	 * @param options the options
	 * @return the held lock
	 */
	static LockHandle lockEventually(LockClient client, String key, LockOptions options) {
		return await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(20))
			.ignoreExceptions()
			.until(() -> client.lock(key, options), (held) -> true);
	}

	/**
	 * Acquires and releases a key a number of times, each with {@link #lockEventually}.
	 * @param client the client
	 * @param key the key
	 * @param options the options
	 * @param times how many grants
	 * @return the fencing token of the last grant
	 */
	static long grant(LockClient client, String key, LockOptions options, int times) {
		long token = 0;
		for (int i = 0; i < times; i++) {
			try (LockHandle handle = lockEventually(client, key, options)) {
				token = handle.fencingToken();
			}
		}
		return token;
	}

	/**
	 * Tries to acquire every 20 ms until it succeeds or the bound passes; releases at
	 * once.
	 * @param client the client
	 * @param key the key
	 * @param options the options (a zero wait time)
	 * @param bound how long to keep trying
	 * @return {@link System#nanoTime()} of the acquisition, or {@code -1} if there was
	 * none
	 */
	static long firstAcquisition(LockClient client, String key, LockOptions options, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (System.nanoTime() - deadline < 0) {
			try {
				Optional<LockHandle> handle = client.tryLock(key, options);
				if (handle.isPresent()) {
					long acquired = System.nanoTime();
					handle.get().release();
					return acquired;
				}
			}
			catch (RuntimeException ex) {
				// Try again until the bound.
			}
			Pause.millis(20);
		}
		return -1;
	}

	/**
	 * Watches {@link LockHandle#isLeaseLost()} every 5 ms up to the bound.
	 * @param handle the hold
	 * @param bound how long to watch
	 * @return {@link System#nanoTime()} when it was seen true, or {@code -1}
	 */
	static long leaseLostAt(LockHandle handle, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (System.nanoTime() - deadline < 0) {
			if (handle.isLeaseLost()) {
				return System.nanoTime();
			}
			Pause.millis(5);
		}
		return -1;
	}

	/**
	 * Releases, returning what happened instead of throwing.
	 * @param handle the hold
	 * @return {@code "no exception"} or the simple name of the exception
	 */
	static String release(LockHandle handle) {
		try {
			handle.release();
			return "no exception";
		}
		catch (RuntimeException ex) {
			return ex.getClass().getSimpleName();
		}
	}

}
