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
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import dev.distlock.LockHandle;
import dev.distlock.LockKind;

/**
 * The timers of {@link LockMetrics}, with the names and tags that Micrometer's
 * {@code DefaultMeterObservationHandler} gives the timers of the
 * {@link LockObservationDocumentation observations}: {@value LockMetrics#ACQUISITION} for
 * acquisitions, {@value LockMetrics#HOLD_ACTIVE} while a lock is held and
 * {@value LockMetrics#HOLD} once its hold ended, tagged as the observations are
 * ({@link LockKindTags#tags(LockKind)}). The timers of an observation that the
 * observation registry records itself are left out.
 */
final class LockTimers {

	private final @Nullable MeterProvider<Timer> acquisition;

	private final @Nullable MeterProvider<LongTaskTimer> active;

	private final @Nullable MeterProvider<Timer> ended;

	private final Map<LockHandle, LongTaskTimer.Sample> holds = new ConcurrentHashMap<>();

	LockTimers(MeterRegistry registry, Collection<LockObservationDocumentation> timedByObservations) {
		boolean timeAcquisitions = !timedByObservations.contains(LockObservationDocumentation.ACQUISITION);
		boolean timeHolds = !timedByObservations.contains(LockObservationDocumentation.HOLD);
		this.acquisition = timeAcquisitions ? Timer.builder(LockMetrics.ACQUISITION)
			.description("Time to acquire a distributed lock")
			.withRegistry(registry) : null;
		this.active = timeHolds ? LongTaskTimer.builder(LockMetrics.HOLD_ACTIVE)
			.description("Distributed locks held now, and for how long")
			.withRegistry(registry) : null;
		this.ended = timeHolds
				? Timer.builder(LockMetrics.HOLD).description("Time distributed locks were held").withRegistry(registry)
				: null;
	}

	/**
	 * Times an acquisition.
	 * @param name the logical name of the lock
	 * @param kind the kind of lock
	 * @param outcome how it ended
	 * @param error the simple class name of its failure, {@value LockMetrics#NO_ERROR}
	 * without one
	 * @param waited how long it took
	 */
	void acquisition(String name, LockKind kind, String outcome, String error, Duration waited) {
		if (this.acquisition != null) {
			this.acquisition.withTags(tags(name, kind).and(LockMetrics.OUTCOME, outcome, LockMetrics.ERROR, error))
				.record(waited);
		}
	}

	/**
	 * Counts a hold as active.
	 * @param handle the new hold
	 */
	void holdStarted(LockHandle handle) {
		if (this.active != null) {
			this.holds.put(handle, this.active.withTags(tags(handle.name(), LockKind.of(handle))).start());
		}
	}

	/**
	 * Ends an active hold and times it, as released or, if its lease was found lost
	 * (which the clients report before the release), as lease lost.
	 * @param handle the hold
	 * @param held how long it was held
	 */
	void holdEnded(LockHandle handle, Duration held) {
		LongTaskTimer.Sample sample = this.holds.remove(handle);
		if (sample != null) {
			sample.stop();
		}
		if (this.ended != null) {
			String outcome = handle.isLeaseLost() ? LockObservationDocumentation.LEASE_LOST
					: LockObservationDocumentation.RELEASED;
			this.ended.withTags(tags(handle.name(), LockKind.of(handle)).and(LockMetrics.OUTCOME, outcome,
					LockMetrics.ERROR, LockMetrics.NO_ERROR))
				.record(held);
		}
	}

	/** The tags of the observations: name, kind, mode, and the permits of a semaphore. */
	private static Tags tags(String name, LockKind kind) {
		return Tags.of(LockMetrics.NAME, name).and(LockKindTags.tags(kind));
	}

}
