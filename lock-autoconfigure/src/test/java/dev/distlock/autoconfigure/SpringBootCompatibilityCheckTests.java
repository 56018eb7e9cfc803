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

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.FilteredClassLoader;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SpringBootCompatibilityCheck}: distlock on a Spring Boot other than
 * 4.0 or 4.1 fails at startup saying so, instead of asking to configure Redis.
 */
class SpringBootCompatibilityCheckTests {

	@Test
	void springBoot4StartsWithoutComplaint() {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		LockTestContexts.withSharedRedis()
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LockClient.class));
	}

	@Test
	void classPathWithoutSpringBoot4FailsStartupSayingSo() {
		LockTestContexts.withSharedRedis()
			.withClassLoader(new FilteredClassLoader(SpringBootCompatibilityCheck.SPRING_BOOT_4_CLASS))
			.withBean(LockedService.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessage("The Spring Boot on the class path is not supported by distlock, which needs Spring Boot "
						+ "4.0 and 4.1: org.springframework.boot.EnvironmentPostProcessor of Spring Boot 4 is missing "
						+ "(spring-boot version " + SpringBootVersion.getVersion() + "). Upgrade the application to "
						+ "Spring Boot 4.0 or 4.1, or remove distlock from its dependencies (or set "
						+ "distlock.enabled=false)."));
	}

	@Test
	void disabledDistlockDoesNotCheck() {
		LockTestContexts.withSharedRedis()
			.withClassLoader(new FilteredClassLoader(SpringBootCompatibilityCheck.SPRING_BOOT_4_CLASS))
			.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SpringBootCompatibilityCheck.class));
	}

	@Test
	void springBoot3IsNamedInTheMessage() {
		assertThat(SpringBootCompatibilityCheck.problem("3.5.16", false))
			.isEqualTo("Spring Boot 3.5.16 is not supported by distlock, which needs Spring Boot 4.0 and 4.1");
	}

	@Test
	void unknownVersionWithoutSpringBoot4IsUnsupported() {
		assertThat(SpringBootCompatibilityCheck.problem(null, false))
			.startsWith("The Spring Boot on the class path is not supported by distlock")
			.contains("(spring-boot version unknown)");
	}

	@Test
	void laterMajorVersionIsUnsupported() {
		assertThat(SpringBootCompatibilityCheck.problem("5.0.0", true))
			.isEqualTo("Spring Boot 5.0.0 is not supported by distlock, which needs Spring Boot 4.0 and 4.1");
	}

	@Test
	void springBoot4VersionsAreSupported() {
		assertThat(SpringBootCompatibilityCheck.problem("4.0.0", true)).isNull();
		assertThat(SpringBootCompatibilityCheck.problem("4.1.1", true)).isNull();
		assertThat(SpringBootCompatibilityCheck.problem(null, true)).as("version unknown, Spring Boot 4 classes")
			.isNull();
	}

	static class LockedService {

		@DistributedLock("'svc:' + #id")
		public void work(String id) {
		}

	}

}
