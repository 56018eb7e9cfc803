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

package dev.distlock.autoconfigure;

import java.util.stream.Collectors;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

import dev.distlock.DistributedLockConfigurationException;

/**
 * Rejects properties under {@code distlock.locks} that bind to no setting, which Spring
 * Boot would ignore: a lock name with dots out of brackets
 * ({@code distlock.locks.StockService.decrement.wait-time} binds nothing, where
 * {@code distlock.locks[StockService.decrement].wait-time} would), or a misspelt setting.
 * Binds them again with Spring Boot's {@link NoUnboundElementsBindHandler}, which finds
 * them.
 */
final class UnboundLockSettings {

	private UnboundLockSettings() {
	}

	/**
	 * Fails if a property under {@code distlock.locks} binds to no setting.
	 * @param environment where the properties are
	 * @throws DistributedLockConfigurationException naming the properties and where they
	 * were set
	 */
	static void reject(Environment environment) {
		try {
			Binder.get(environment)
				.bind("distlock.locks", Bindable.mapOf(String.class, NamedLockProperties.class),
						new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
		}
		catch (BindException ex) {
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				throw ex;
			}
			throw new DistributedLockConfigurationException(
					"distlock.locks has properties that set nothing: " + unbound.getUnboundProperties()
						.stream()
						.map(UnboundLockSettings::describe)
						.sorted()
						.collect(Collectors.joining(", ")),
					"Put a lock name with dots in brackets, as in distlock.locks[StockService.decrement].wait-time, "
							+ "and set only wait-time, lease-time, min-hold-time and programmatic under it.");
		}
	}

	private static String describe(ConfigurationProperty property) {
		Origin origin = property.getOrigin();
		return property.getName() + ((origin != null) ? " (" + origin + ")" : "");
	}

}
