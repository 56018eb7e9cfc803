package dev.distlock.observation;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockUnavailableException;

/**
 * Records Micrometer meters of the locks of a client, as a {@link LockListener}. Every
 * meter but {@value #RENEWALS} is tagged with the logical {@code name} of the lock; the
 * key never is, since keys are unbounded:
 * <ul>
 * <li>{@value #ACQUIRE}: timer of acquisitions, tagged with their {@code outcome}
 * ({@value LockObservationDocumentation#ACQUIRED},
 * {@value LockObservationDocumentation#NOT_ACQUIRED},
 * {@value LockObservationDocumentation#ERROR}); re-entrant acquisitions are not
 * counted;</li>
 * <li>{@value #HOLD_ACTIVE}: long task timer of the locks held now, and for how
 * long;</li>
 * <li>{@value #HOLD}: timer of holds that ended;</li>
 * <li>{@value #LEASE_LOST}: counter of leases found lost;</li>
 * <li>{@value #RENEWALS}: counter of lease renewals, all locks together;</li>
 * <li>{@value #WAITERS}: gauge of the callers waiting for a lock another holder has.</li>
 * </ul>
 */
public class LockMetrics implements LockListener {

	/** Name of the acquisition timer. */
	public static final String ACQUIRE = "distlock.acquire";

	/** Name of the long task timer of held locks. */
	public static final String HOLD_ACTIVE = "distlock.hold.active";

	/** Name of the timer of ended holds. */
	public static final String HOLD = "distlock.hold";

	/** Name of the counter of lost leases. */
	public static final String LEASE_LOST = "distlock.lease.lost";

	/** Name of the counter of lease renewals. */
	public static final String RENEWALS = "distlock.renewals";

	/** Name of the gauge of waiting callers. */
	public static final String WAITERS = "distlock.waiters";

	private static final String NAME = LockObservationDocumentation.LowCardinalityKeyNames.NAME.asString();

	private static final String OUTCOME = LockObservationDocumentation.LowCardinalityKeyNames.OUTCOME.asString();

	private final MeterRegistry registry;

	private final MeterProvider<Timer> acquire;

	private final MeterProvider<LongTaskTimer> holdActive;

	private final MeterProvider<Timer> hold;

	private final MeterProvider<Counter> leaseLost;

	private final Counter renewals;

	private final Map<LockHandle, LongTaskTimer.Sample> holds = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> waiters = new ConcurrentHashMap<>();

	/**
	 * Creates the meters in a registry.
	 * @param registry where to register the meters
	 */
	public LockMetrics(MeterRegistry registry) {
		this.registry = registry;
		this.acquire = Timer.builder(ACQUIRE).description("Time to acquire a distributed lock").withRegistry(registry);
		this.holdActive = LongTaskTimer.builder(HOLD_ACTIVE)
			.description("Distributed locks held now, and for how long")
			.withRegistry(registry);
		this.hold = Timer.builder(HOLD).description("Time distributed locks were held").withRegistry(registry);
		this.leaseLost = Counter.builder(LEASE_LOST)
			.description("Leases of distributed locks found lost while held")
			.withRegistry(registry);
		this.renewals = Counter.builder(RENEWALS).description("Lease renewals of distributed locks").register(registry);
	}

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		this.acquire.withTags(NAME, handle.name(), OUTCOME, LockObservationDocumentation.ACQUIRED).record(waited);
		this.holds.put(handle, this.holdActive.withTags(NAME, handle.name()).start());
	}

	@Override
	public void notAcquired(String key, String name, Duration waited) {
		this.acquire.withTags(NAME, name, OUTCOME, LockObservationDocumentation.NOT_ACQUIRED).record(waited);
	}

	@Override
	public void unavailable(String key, String name, Duration waited, LockUnavailableException failure) {
		this.acquire.withTags(NAME, name, OUTCOME, LockObservationDocumentation.ERROR).record(waited);
	}

	@Override
	public void released(LockHandle handle, Duration held) {
		LongTaskTimer.Sample sample = this.holds.remove(handle);
		if (sample != null) {
			sample.stop();
		}
		this.hold.withTags(NAME, handle.name()).record(held);
	}

	@Override
	public void leaseLost(LockHandle handle) {
		this.leaseLost.withTags(NAME, handle.name()).increment();
	}

	@Override
	public void renewed(int renewed, int roundTrips) {
		this.renewals.increment(renewed);
	}

	@Override
	public void startedWaiting(String key, String name) {
		waiters(name).incrementAndGet();
	}

	@Override
	public void stoppedWaiting(String key, String name) {
		waiters(name).decrementAndGet();
	}

	private AtomicInteger waiters(String name) {
		return this.waiters.computeIfAbsent(name, (n) -> {
			AtomicInteger count = new AtomicInteger();
			Gauge.builder(WAITERS, count, AtomicInteger::get)
				.description("Callers waiting for a distributed lock that another holder has")
				.tag(NAME, n)
				.strongReference(true)
				.register(this.registry);
			return count;
		});
	}

}
