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

package dev.distlock.test.spring;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Gives every test class annotated with {@link WithRedisTestServer} a
 * {@link RedisTestServerContextCustomizer}; registered in
 * {@code META-INF/spring.factories} so that the Spring TestContext Framework consults it
 * for every test class.
 */
class RedisTestServerContextCustomizerFactory implements ContextCustomizerFactory {

	private static final String CONNECTION_DETAILS = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails";

	/**
	 * Returns the customizer for an annotated test class, or {@code null} for any other.
	 * @param testClass the test class
	 * @param configAttributes its context configuration attributes (unused)
	 * @return the customizer, or {@code null} if the class is not annotated
	 * @throws IllegalStateException if the class is annotated but Spring Boot's Redis
	 * support is not on the class path
	 */
	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		if (!TestContextAnnotationUtils.hasAnnotation(testClass, WithRedisTestServer.class)) {
			return null;
		}
		if (!ClassUtils.isPresent(CONNECTION_DETAILS, testClass.getClassLoader())) {
			throw new IllegalStateException("@WithRedisTestServer on " + testClass.getName()
					+ " needs Spring Boot's Redis support: add org.springframework.boot:spring-boot-starter-data-redis"
					+ " (or dev.distlock:lock-starter, which brings it) to the test class path");
		}
		return new RedisTestServerContextCustomizer();
	}

}
