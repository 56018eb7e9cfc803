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

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.PriorityOrdered;
import org.springframework.util.ClassUtils;

import dev.distlock.DistributedLockConfigurationException;

/**
 * Fails the application context, before any bean is created, when distlock runs on a
 * Spring Boot it does not support. Without it, Spring Boot 3 would start distlock's
 * auto-configuration before its own Redis auto-configuration (which has another name
 * there) and the application would fail with a misleading "configure Redis". Later 4.x
 * versions are let through: untested, but laid out as 4.0 and 4.1 are. Uses only API that
 * Spring Boot 3 has as well, so that it loads and runs there.
 */
final class SpringBootCompatibilityCheck implements BeanFactoryPostProcessor, PriorityOrdered {

	/** The supported Spring Boot versions, as the message names them. */
	static final String SUPPORTED = "Spring Boot 4.0 and 4.1";

	/**
	 * A class of Spring Boot 4 ({@code spring-boot}) that Spring Boot 3 does not have.
	 */
	static final String SPRING_BOOT_4_CLASS = "org.springframework.boot.EnvironmentPostProcessor";

	/** What to do on an unsupported Spring Boot. */
	static final String ACTION = "Upgrade the application to Spring Boot 4.0 or 4.1, or remove distlock from its "
			+ "dependencies (or set distlock.enabled=false).";

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		String problem = problem(SpringBootVersion.getVersion(),
				ClassUtils.isPresent(SPRING_BOOT_4_CLASS, beanFactory.getBeanClassLoader()));
		if (problem != null) {
			throw new DistributedLockConfigurationException(problem, ACTION);
		}
	}

	@Override
	public int getOrder() {
		return HIGHEST_PRECEDENCE;
	}

	/**
	 * Tells what is wrong with the Spring Boot found, if anything.
	 * @param version Spring Boot's version, if known
	 * @param springBoot4 whether Spring Boot 4's classes are on the class path
	 * @return the message to fail with, or {@code null} if the Spring Boot is supported
	 */
	static @Nullable String problem(@Nullable String version, boolean springBoot4) {
		if (version != null && !version.startsWith("4.")) {
			return "Spring Boot " + version + " is not supported by distlock, which needs " + SUPPORTED;
		}
		if (!springBoot4) {
			return "The Spring Boot on the class path is not supported by distlock, which needs " + SUPPORTED + ": "
					+ SPRING_BOOT_4_CLASS + " of Spring Boot 4 is missing (spring-boot version "
					+ ((version != null) ? version : "unknown") + ")";
		}
		return null;
	}

	/**
	 * Lets a native image find {@link #SPRING_BOOT_4_CLASS} by name, as the check does;
	 * otherwise the application would fail there as if it ran on Spring Boot 3.
	 * Registered in {@code META-INF/spring/aot.factories}.
	 */
	static final class SpringBootCompatibilityCheckRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection().registerTypeIfPresent(classLoader, SPRING_BOOT_4_CLASS);
		}

	}

}
