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

package dev.distlock.observation;

import java.util.function.Supplier;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.docs.ObservationDocumentation;
import org.jspecify.annotations.Nullable;

import dev.distlock.LockHandle;
import dev.distlock.LockKind;
import dev.distlock.LockOptions;

/**
 * The Micrometer {@link Observation observations} of locks: how long a call waited for
 * its lock, and how long the lock was held. Both carry the lock's
 * {@linkplain LowCardinalityKeyNames#NAME name}, {@linkplain LowCardinalityKeyNames#KIND
 * kind}, {@linkplain LowCardinalityKeyNames#MODE mode}, the
 * {@linkplain LowCardinalityKeyNames#PERMITS permits} of a semaphore and the
 * {@linkplain LowCardinalityKeyNames#OUTCOME outcome} as low-cardinality key values and
 * its {@linkplain HighCardinalityKeyNames#KEY key} as a high-cardinality one. Nothing is
 * observed unless an {@link ObservationRegistry} is configured. With a meter handler on
 * the registry (Spring Boot's {@code DefaultMeterObservationHandler}), each observation
 * is recorded as a timer of its name and a long task timer of its name plus
 * {@code .active}: the timers of locks.
 */
public enum LockObservationDocumentation implements ObservationDocumentation {

	/**
	 * Acquiring a lock, from the first attempt until it is acquired, given up on, or
	 * failed; re-entrant acquisitions, which need no Redis, are not observed. Outcomes:
	 * {@value #ACQUIRED}, {@value #NOT_ACQUIRED}, {@value #ERROR}.
	 */
	ACQUISITION {

		@Override
		public String getName() {
			return "distlock.acquisition";
		}

		@Override
		public String getContextualName() {
			return "acquire lock";
		}

	},

	/**
	 * Holding a lock, from its acquisition until its release, for annotated and
	 * programmatic locks alike; re-entrant acquisitions do not start another. The client
	 * starts it after the acquisition, as a child of the caller's current observation,
	 * and stops it on release; the {@link dev.distlock.DistributedLock @DistributedLock}
	 * advisor makes it the current observation while the method runs, and records the
	 * method's exception as its error. Outcomes: {@value #RELEASED}, {@value #LEASE_LOST}
	 * (the lease was found lost while held or on release).
	 */
	HOLD {

		@Override
		public String getName() {
			return "distlock.hold";
		}

		@Override
		public String getContextualName() {
			return "locked";
		}

	};

	/** Outcome of an acquisition that got the lock. */
	public static final String ACQUIRED = "acquired";

	/** Outcome of an acquisition that gave up because another holder kept the lock. */
	public static final String NOT_ACQUIRED = "not_acquired";

	/** Outcome of an acquisition that failed: Redis could not be reached or failed. */
	public static final String ERROR = "error";

	/** Outcome of a hold that ended with its lease intact. */
	public static final String RELEASED = "released";

	/** Outcome of a hold whose lease was found lost while held or on release. */
	public static final String LEASE_LOST = "lease_lost";

	@Override
	public KeyName[] getLowCardinalityKeyNames() {
		return LowCardinalityKeyNames.values();
	}

	@Override
	public KeyName[] getHighCardinalityKeyNames() {
		return HighCardinalityKeyNames.values();
	}

	/**
	 * Starts an observation of a lock; {@link #stop} ends it.
	 * @param registry where to report it
	 * @param key the Redis key of the lock
	 * @param options the options of the acquisition: the name, mode and permits of the
	 * lock
	 * @return the started observation, a no-op one if the registry observes nothing
	 */
	public Observation start(ObservationRegistry registry, String key, LockOptions options) {
		Observation observation = observation(registry);
		if (observation.isNoop()) {
			return observation;
		}
		return observation.contextualName(getContextualName() + " " + options.name())
			.lowCardinalityKeyValue(LowCardinalityKeyNames.NAME.withValue(options.name()))
			.lowCardinalityKeyValues(LockKindTags.keyValues(LockKind.of(options)))
			.highCardinalityKeyValue(HighCardinalityKeyNames.KEY.withValue(key))
			.start();
	}

	/**
	 * Runs an acquisition of a lock inside an {@link #ACQUISITION} observation, which
	 * stops as {@link #ACQUIRED} if the acquisition returns a hold, {@link #NOT_ACQUIRED}
	 * if it returns null, and {@link #ERROR}, with the exception, if it throws. Every
	 * lock client observes its acquisitions through it.
	 * @param <H> the type of hold
	 * @param registry where to report it
	 * @param key the key of the lock
	 * @param options the options of the acquisition
	 * @param acquisition the acquisition, run in the observation's scope
	 * @return what the acquisition returned
	 */
	public static <H> @Nullable H observeAcquisition(ObservationRegistry registry, String key, LockOptions options,
			Supplier<? extends @Nullable H> acquisition) {
		Observation observation = ACQUISITION.start(registry, key, options);
		H hold;
		try (Observation.Scope scope = observation.openScope()) {
			hold = acquisition.get();
		}
		catch (RuntimeException ex) {
			observation.error(ex);
			stop(observation, ERROR);
			throw ex;
		}
		stop(observation, (hold != null) ? ACQUIRED : NOT_ACQUIRED);
		return hold;
	}

	/**
	 * Stops the observation of a hold that ended, with its outcome.
	 * @param observation the hold's observation
	 * @param handle the hold
	 */
	public static void stopHold(Observation observation, LockHandle handle) {
		stop(observation, handle.isLeaseLost() ? LEASE_LOST : RELEASED);
	}

	/**
	 * Stops an observation with its outcome.
	 * @param observation the observation
	 * @param outcome one of the outcome constants of this type
	 */
	public static void stop(Observation observation, String outcome) {
		observation.lowCardinalityKeyValue(LowCardinalityKeyNames.OUTCOME.withValue(outcome)).stop();
	}

	/**
	 * Low-cardinality key values: tags of the meters that observations may be recorded
	 * as.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/**
		 * The logical name of the lock.
		 */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/**
		 * The kind of lock: {@value LockKind#EXCLUSIVE}, {@value LockKind#READ_WRITE} or
		 * {@value LockKind#SEMAPHORE}.
		 */
		KIND {
			@Override
			public String asString() {
				return "kind";
			}
		},

		/**
		 * How the lock is shared: {@code exclusive}, {@code read} or {@code write}.
		 */
		MODE {
			@Override
			public String asString() {
				return "mode";
			}
		},

		/**
		 * How many holders a semaphore admits; only on the observations of a
		 * {@value LockKind#SEMAPHORE}.
		 */
		PERMITS {
			@Override
			public String asString() {
				return "permits";
			}
		},

		/**
		 * How the acquisition or the hold ended.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		}

	}

	/**
	 * High-cardinality key values: span attributes, never meter tags.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/**
		 * The Redis key of the lock.
		 */
		KEY {
			@Override
			public String asString() {
				return "key";
			}
		}

	}

}
