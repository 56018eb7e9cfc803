package dev.distlock.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The Micrometer {@link Observation observations} of locks, so that tracing shows how
 * long a call waited for its lock and how long it held it. Both carry the lock's
 * {@linkplain LowCardinalityKeyNames#NAME name} and
 * {@linkplain LowCardinalityKeyNames#OUTCOME outcome} as low-cardinality key values and
 * its {@linkplain HighCardinalityKeyNames#KEY key} as a high-cardinality one. Nothing is
 * observed unless an {@link ObservationRegistry} is configured.
 */
public enum LockObservationDocumentation implements ObservationDocumentation {

	/**
	 * Acquiring a lock from Redis, from the first attempt until it is acquired, given up
	 * on, or failed; re-entrant acquisitions, which need no Redis, are not observed.
	 * Outcomes: {@value #ACQUIRED}, {@value #NOT_ACQUIRED}, {@value #ERROR}.
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
	 * Running a {@link dev.distlock.DistributedLock @DistributedLock} method under its
	 * lock, from the acquisition until the lock is released. Outcomes: {@value #SUCCESS},
	 * {@value #ERROR} (the method threw), {@value #LEASE_LOST} (the release found the
	 * lease lost).
	 */
	EXECUTION {

		@Override
		public String getName() {
			return "distlock.execution";
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

	/** Outcome of an acquisition that Redis failed, or of a locked method that threw. */
	public static final String ERROR = "error";

	/** Outcome of a locked method that returned and released its lock. */
	public static final String SUCCESS = "success";

	/**
	 * Outcome of a locked method that returned but whose lease was found lost on release.
	 */
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
	 * @param name the logical name of the lock
	 * @param key the Redis key of the lock
	 * @return the started observation, a no-op one if the registry observes nothing
	 */
	public Observation start(ObservationRegistry registry, String name, String key) {
		Observation observation = observation(registry);
		if (observation.isNoop()) {
			return observation;
		}
		return observation.contextualName(getContextualName() + " " + name)
			.lowCardinalityKeyValue(LowCardinalityKeyNames.NAME.withValue(name))
			.highCardinalityKeyValue(HighCardinalityKeyNames.KEY.withValue(key))
			.start();
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
		 * How the acquisition or the locked execution ended.
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
