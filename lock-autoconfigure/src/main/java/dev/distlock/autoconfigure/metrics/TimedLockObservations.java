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

package dev.distlock.autoconfigure.metrics;

import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.distlock.observation.LockObservationDocumentation;

/**
 * Finds the lock observations that the application records as timers itself: all of them
 * where the lock client has an {@link ObservationRegistry} (a unique one, as the client
 * takes it) with handlers, and the application a {@link MeterObservationHandler} (which
 * Spring Boot adds to every observation registry it configures), except those switched
 * off with {@code management.observations.enable.<prefix>=false}, read as Spring Boot
 * reads it: the longest matching prefix wins, then {@code all}.
 */
final class TimedLockObservations {

	private static final String ENABLE = "management.observations.enable";

	private TimedLockObservations() {
	}

	/**
	 * Returns the lock observations recorded as timers by the observation registry.
	 * @param observationRegistry the application's observation registry, if any
	 * @param meterObservationHandlers the application's meter observation handlers
	 * @param environment the application's environment
	 * @return the observations, empty if the observation registry records no timers
	 */
	static Set<LockObservationDocumentation> find(ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<MeterObservationHandler<?>> meterObservationHandlers, Environment environment) {
		Set<LockObservationDocumentation> timed = EnumSet.noneOf(LockObservationDocumentation.class);
		ObservationRegistry registry = observationRegistry.getIfUnique();
		if (registry == null || registry.isNoop() || meterObservationHandlers.stream().findAny().isEmpty()) {
			return timed;
		}
		BindResult<Map<String, Boolean>> bound = Binder.get(environment)
			.bind(ENABLE, Bindable.mapOf(String.class, Boolean.class));
		Map<String, Boolean> enable = bound.isBound() ? bound.get() : Map.of();
		for (LockObservationDocumentation observation : LockObservationDocumentation.values()) {
			if (isEnabled(enable, Objects.requireNonNull(observation.getName()))) {
				timed.add(observation);
			}
		}
		return timed;
	}

	private static boolean isEnabled(Map<String, Boolean> enable, String name) {
		for (String prefix = name; !prefix.isEmpty(); prefix = parent(prefix)) {
			Boolean enabled = enable.get(prefix);
			if (enabled != null) {
				return enabled;
			}
		}
		return enable.getOrDefault("all", true);
	}

	private static String parent(String prefix) {
		int dot = prefix.lastIndexOf('.');
		return (dot != -1) ? prefix.substring(0, dot) : "";
	}

}
