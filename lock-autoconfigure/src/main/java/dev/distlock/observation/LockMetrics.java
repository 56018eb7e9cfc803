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

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.distlock.LockHandle;
import dev.distlock.LockKind;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * Records Micrometer meters of the locks of a client, as a {@link LockListener}. Every
 * meter but {@value #RENEWALS} is tagged with the logical {@code name} of the lock, its
 * {@code kind} ({@value LockKind#EXCLUSIVE}, {@value LockKind#READ_WRITE},
 * {@value LockKind#SEMAPHORE}) and {@code mode} ({@code exclusive}, {@code read},
 * {@code write}), and the timers of a semaphore's permits also with its {@code permits}
 * (as the observations have them); the key never is, since keys are unbounded:
 * <ul>
 * <li>{@value #ACQUISITION}: timer of acquisitions, tagged with their {@code outcome}
 * ({@value LockObservationDocumentation#ACQUIRED},
 * {@value LockObservationDocumentation#NOT_ACQUIRED},
 * {@value LockObservationDocumentation#ERROR}) and {@code error} ({@code none}, or the
 * simple class name of the failure); re-entrant acquisitions are not counted;</li>
 * <li>{@value #HOLD}: timer of holds that ended, tagged with their {@code outcome}
 * ({@value LockObservationDocumentation#RELEASED},
 * {@value LockObservationDocumentation#LEASE_LOST}) and {@code error}
 * ({@code none});</li>
 * <li>{@value #HOLD_ACTIVE}: long task timer of the locks held now, and for how
 * long;</li>
 * <li>{@value #LEASE_LOST}: counter of leases found lost;</li>
 * <li>{@value #RENEWALS}: counter of lease renewals, all locks together;</li>
 * <li>{@value #WAITERS}: gauge of the callers waiting for a lock another holder has.</li>
 * </ul>
 * The three timers are the ones Micrometer's {@code DefaultMeterObservationHandler}
 * records for the {@link LockObservationDocumentation observations} of the client, with
 * the same names and tags. Where an observation registry records them, leave them to it
 * ({@link #LockMetrics(MeterRegistry, Collection)}): a timer recorded by both would count
 * every lock twice.
 */
public class LockMetrics implements LockListener {

	/** Name of the acquisition timer. */
	public static final String ACQUISITION = "distlock.acquisition";

	/** Name of the timer of ended holds. */
	public static final String HOLD = "distlock.hold";

	/** Name of the long task timer of held locks. */
	public static final String HOLD_ACTIVE = "distlock.hold.active";

	/** Name of the counter of lost leases. */
	public static final String LEASE_LOST = "distlock.lease.lost";

	/** Name of the counter of lease renewals. */
	public static final String RENEWALS = "distlock.renewals";

	/** Name of the gauge of waiting callers. */
	public static final String WAITERS = "distlock.waiters";

	/** Tag of the logical name of the lock. */
	static final String NAME = LockObservationDocumentation.LowCardinalityKeyNames.NAME.asString();

	/** Tag of the outcome. */
	static final String OUTCOME = LockObservationDocumentation.LowCardinalityKeyNames.OUTCOME.asString();

	/** Tag of the error, as Micrometer's observation handler names it. */
	static final String ERROR = "error";

	/** Value of the error tag without an error, as the observation handler writes it. */
	static final String NO_ERROR = "none";

	private final MeterRegistry registry;

	private final LockTimers timers;

	private final MeterProvider<Counter> leaseLost;

	private final Counter renewals;

	private final Map<Tags, AtomicInteger> waiters = new ConcurrentHashMap<>();

	/**
	 * Creates all the meters in a registry, for an application whose observations are not
	 * recorded as timers.
	 * @param registry where to register the meters
	 */
	public LockMetrics(MeterRegistry registry) {
		this(registry, Set.of());
	}

	/**
	 * Creates the meters in a registry, but for the timers of the observations that the
	 * application's observation registry records as timers itself.
	 * @param registry where to register the meters
	 * @param timedByObservations the observations whose timers are left to the
	 * observation registry
	 */
	public LockMetrics(MeterRegistry registry, Collection<LockObservationDocumentation> timedByObservations) {
		this.registry = registry;
		this.timers = new LockTimers(registry, timedByObservations);
		this.leaseLost = Counter.builder(LEASE_LOST)
			.description("Leases of distributed locks found lost while held")
			.withRegistry(registry);
		this.renewals = Counter.builder(RENEWALS).description("Lease renewals of distributed locks").register(registry);
	}

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		this.timers.acquisition(handle.name(), LockKind.of(handle), LockObservationDocumentation.ACQUIRED, NO_ERROR,
				waited);
		this.timers.holdStarted(handle);
	}

	@Override
	public void notAcquired(String key, LockOptions options, Duration waited) {
		this.timers.acquisition(options.name(), LockKind.of(options), LockObservationDocumentation.NOT_ACQUIRED,
				NO_ERROR, waited);
	}

	@Override
	public void unavailable(String key, LockOptions options, Duration waited, LockUnavailableException failure) {
		this.timers.acquisition(options.name(), LockKind.of(options), LockObservationDocumentation.ERROR,
				failure.getClass().getSimpleName(), waited);
	}

	@Override
	public void released(LockHandle handle, Duration held) {
		this.timers.holdEnded(handle, held);
	}

	@Override
	public void leaseLost(LockHandle handle) {
		this.leaseLost.withTags(kindTags(handle.name(), LockKind.of(handle))).increment();
	}

	@Override
	public void renewed(int renewed, int roundTrips) {
		this.renewals.increment(renewed);
	}

	@Override
	public void startedWaiting(String key, LockOptions options) {
		waiters(options).incrementAndGet();
	}

	@Override
	public void stoppedWaiting(String key, LockOptions options) {
		waiters(options).decrementAndGet();
	}

	/**
	 * Returns the tags every meter of a lock but {@value #RENEWALS} has: its name, kind
	 * and mode; not the permits, which only the timers have.
	 * @param name the logical name of the lock
	 * @param kind its kind
	 * @return the tags
	 */
	private static Tags kindTags(String name, LockKind kind) {
		return Tags.of(NAME, name, LockKindTags.KIND_TAG, kind.label(), LockKindTags.MODE_TAG, kind.modeLabel());
	}

	private AtomicInteger waiters(LockOptions options) {
		Tags tags = kindTags(options.name(), LockKind.of(options));
		return this.waiters.computeIfAbsent(tags, (t) -> {
			AtomicInteger count = new AtomicInteger();
			Gauge.builder(WAITERS, count, AtomicInteger::get)
				.description("Callers waiting for a distributed lock that another holder has")
				.tags(t)
				.strongReference(true)
				.register(this.registry);
			return count;
		});
	}

}
