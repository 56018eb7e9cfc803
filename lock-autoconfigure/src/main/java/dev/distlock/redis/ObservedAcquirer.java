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

import java.time.Duration;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.observation.LockObservationDocumentation;

/**
 * Acquires for a {@link RedisLockClient}: a key the calling thread already holds is
 * re-entered at once ({@link HeldLocks}), with no round trip and no observation; any
 * other acquisition goes to the {@link LockAcquirer} inside an
 * {@link LockObservationDocumentation#ACQUISITION} observation, which stops as acquired,
 * not acquired or error, and a Redis that cannot be reached is also reported to the
 * listeners. A new hold is observed from there until its release
 * ({@link LockObservationDocumentation#HOLD}), as a child of the caller's current
 * observation.
 */
final class ObservedAcquirer {

	private final HeldLocks held;

	private final LockAcquirer acquirer;

	private final LockEvents events;

	private final ObservationRegistry observationRegistry;

	ObservedAcquirer(HeldLocks held, LockAcquirer acquirer, LockEvents events,
			ObservationRegistry observationRegistry) {
		this.held = held;
		this.acquirer = acquirer;
		this.events = events;
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Acquires a key for the calling thread, as {@link #acquire} does, or throws.
	 * @throws LockNotAcquiredException if not acquired in time or interrupted
	 */
	LockHandle lock(String redisKey, LockOptions options) {
		long start = System.nanoTime();
		LockHandle handle = acquire(redisKey, options, start);
		if (handle == null) {
			throw new LockNotAcquiredException(redisKey, options.name(), options.waitTime(),
					Duration.ofNanos(System.nanoTime() - start));
		}
		return handle;
	}

	/**
	 * Acquires a key for the calling thread, waiting no longer than the options allow.
	 * @param redisKey the Redis key, including the client's key prefix
	 * @param options the options of the call
	 * @param start when the call began, by {@link System#nanoTime()}
	 * @return the hold, or null if not acquired in time or interrupted
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws LockLeaseLostException if the thread's hold of the key has lost its lease
	 */
	@Nullable LockHandle acquire(String redisKey, LockOptions options, long start) {
		LockHandle reentered = this.held.reenter(redisKey, options);
		if (reentered != null) {
			return reentered;
		}
		Observation observation = LockObservationDocumentation.ACQUISITION.start(this.observationRegistry, redisKey,
				options);
		RedisLockHandle handle;
		try (Observation.Scope scope = observation.openScope()) {
			handle = this.acquirer.acquire(redisKey, options, start);
		}
		catch (RuntimeException ex) {
			if (ex instanceof LockUnavailableException unavailable) {
				this.events.unavailable(redisKey, options, start, unavailable);
			}
			observation.error(ex);
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.ERROR);
			throw ex;
		}
		if (handle == null) {
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
			return null;
		}
		LockObservationDocumentation.stop(observation, LockObservationDocumentation.ACQUIRED);
		handle.observe(LockObservationDocumentation.HOLD.start(this.observationRegistry, redisKey, options));
		return handle;
	}

}
