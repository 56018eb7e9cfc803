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

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.aop.LockDefinitionSource;

/**
 * Checks {@code distlock.locks} once every singleton exists, so that a setting that would
 * not apply fails startup instead of passing in silence: a property that binds to no
 * setting ({@link UnboundLockSettings}), a name that no
 * {@link DistributedLock @DistributedLock} method carries and that is not marked
 * {@code programmatic} (a typo), or a {@link LockClient} whose
 * {@link LockClient#defaultOptions(String)} does not return the configured values (a
 * client or wrapper of the application's own). The names of the locks are taken from the
 * beans created at startup and from the declared types of the others (lazy, prototype or
 * scoped beans).
 */
final class LockSettingsCheck implements SmartInitializingSingleton {

	private final Map<String, NamedLockProperties> locks;

	private final LockDefinitionSource definitions;

	private final ConfigurableListableBeanFactory beanFactory;

	private final ObjectProvider<LockClient> client;

	private final Environment environment;

	LockSettingsCheck(DistributedLockProperties properties, LockDefinitionSource definitions,
			ConfigurableListableBeanFactory beanFactory, ObjectProvider<LockClient> client, Environment environment) {
		this.locks = properties.getLocks();
		this.definitions = definitions;
		this.beanFactory = beanFactory;
		this.client = client;
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		UnboundLockSettings.reject(this.environment);
		if (this.locks.isEmpty()) {
			return;
		}
		checkNames();
		LockClient lockClient = this.client.getIfUnique();
		if (lockClient != null) {
			this.locks.forEach((name, lock) -> checkApplied(lockClient, name, lock));
		}
	}

	private void checkNames() {
		Set<String> known = knownNames();
		List<String> unknown = this.locks.entrySet()
			.stream()
			.filter((entry) -> !entry.getValue().isProgrammatic() && !known.contains(entry.getKey()))
			.map(Map.Entry::getKey)
			.toList();
		if (!unknown.isEmpty()) {
			throw new DistributedLockConfigurationException(
					"No @DistributedLock method has the lock name" + ((unknown.size() > 1) ? "s " : " ")
							+ quoted(unknown) + " configured under distlock.locks; "
							+ (known.isEmpty() ? "there are no @DistributedLock methods"
									: "the @DistributedLock methods have the names " + quoted(known)),
					"Correct the name under distlock.locks (a name with dots goes in brackets, as in "
							+ "distlock.locks[StockService.decrement]), or, for a lock taken only in code with "
							+ "LockClient.defaultOptions(name), set distlock.locks.<name>.programmatic=true.");
		}
	}

	/**
	 * Finds the locks of the beans not created yet, whose types the lock definition
	 * validator has not seen, and returns the names of all locks found.
	 */
	private Set<String> knownNames() {
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			if (!this.beanFactory.containsSingleton(beanName)) {
				Class<?> type = this.beanFactory.getType(beanName, false);
				if (type != null && AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
					Class<?> userClass = ClassUtils.getUserClass(type);
					ReflectionUtils.doWithMethods(userClass, (method) -> this.definitions.find(method, userClass),
							ReflectionUtils.USER_DECLARED_METHODS);
				}
			}
		}
		return this.definitions.names();
	}

	private static void checkApplied(LockClient client, String name, NamedLockProperties lock) {
		LockOptions actual = client.defaultOptions(name);
		LockOptions configured = lock.applyTo(actual);
		if (!configured.equals(actual)) {
			throw new DistributedLockConfigurationException(
					"The LockClient (" + client.getClass().getName() + ") does not apply distlock.locks." + name
							+ ": its defaultOptions(\"" + name + "\") are " + actual + " instead of " + configured,
					"Make defaultOptions(String) of the LockClient return the configured options (a wrapper "
							+ "delegates it to the client it wraps), or keep the auto-configured client and change "
							+ "it with a RedisLockClientBuilderCustomizer that leaves the configured names alone.");
		}
	}

	private static String quoted(Collection<String> names) {
		return names.stream().map((name) -> "\"" + name + "\"").collect(Collectors.joining(", "));
	}

}
