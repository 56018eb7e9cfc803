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

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.aop.LockDefinition;
import dev.distlock.aop.LockDefinitionSource;

/**
 * With {@code distlock.store=redlock}, fails startup for a
 * {@link DistributedLock @DistributedLock} method that asks for what the RedLock client
 * refuses: the read or write side of a read-write lock, a semaphore, or a minimum hold
 * time (from the annotation or from {@code distlock.locks.<name>.min-hold-time}), naming
 * the method and why, rather than at its first call.
 */
final class RedLockDefinitionCheck implements SmartInitializingSingleton {

	private final LockDefinitionSource definitions;

	private final ConfigurableListableBeanFactory beanFactory;

	private final ObjectProvider<LockClient> lockClient;

	RedLockDefinitionCheck(LockDefinitionSource definitions, ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<LockClient> lockClient) {
		this.definitions = definitions;
		this.beanFactory = beanFactory;
		this.lockClient = lockClient;
	}

	@Override
	public void afterSingletonsInstantiated() {
		LockClient client = this.lockClient.getObject();
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = this.beanFactory.getType(beanName, false);
			if (type != null && AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
				Class<?> userClass = ClassUtils.getUserClass(type);
				ReflectionUtils.doWithMethods(userClass, (method) -> {
					LockDefinition definition = this.definitions.find(method, userClass);
					if (definition != null) {
						check(definition, client);
					}
				}, ReflectionUtils.USER_DECLARED_METHODS);
			}
		}
	}

	private static void check(LockDefinition definition, LockClient client) {
		LockOptions options = definition.options(client.defaultOptions(definition.name()));
		if (options.isShared()) {
			String kind = (options.permits() > 1) ? "a semaphore of " + options.permits() + " permits"
					: "the " + options.mode() + " side of a read-write lock";
			throw new InvalidLockDefinitionException(definition.method(),
					"it asks for " + kind + ", and distlock.store=redlock locks exclusively only: its majority "
							+ "protocol is not built for shared holds",
					"Lock the method exclusively, or use distlock.store=redis.", null);
		}
		if (!options.minHoldTime().isZero()) {
			throw new InvalidLockDefinitionException(definition.method(),
					"it asks for a minimum hold time of " + DurationText.of(options.minHoldTime())
							+ ", which distlock.store=redlock does not support",
					"Remove min-hold-time from the annotation and from distlock.locks[" + definition.name()
							+ "], or use distlock.store=redis.",
					null);
		}
	}

}
