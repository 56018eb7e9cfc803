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

package dev.distlock.aop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockFailureAction;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code onNotAcquired = SKIP}: while another thread holds the lock, the method is not
 * invoked and returns the empty value of its return type; with the lock free it runs as
 * usual.
 */
class SkipWhenNotAcquiredTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(Config.class);

	@Test
	void skippedMethodsReturnTheEmptyValueOfTheirReturnType() {
		String id = TestRedis.uniqueKey("skip");
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "job:" + id)) {
				assertThat(jobs.object(id)).isNull();
				assertThat(jobs.optional(id)).isEmpty();
				assertThat(jobs.list(id)).isEmpty();
				assertThat(jobs.set(id)).isEmpty();
				assertThat(jobs.map(id)).isEmpty();
				assertThat(jobs.sortedMap(id)).isEmpty();
				assertThat(jobs.arrayList(id)).isEmpty();
				assertThat(jobs.stream(id)).isEmpty();
				assertThat(jobs.array(id)).isEmpty();
				assertThat(jobs.number(id)).isZero();
				assertThat(jobs.bigNumber(id)).isZero();
				assertThat(jobs.flag(id)).isFalse();
				assertThat(jobs.character(id)).isEqualTo('\0');
				assertThat(jobs.boxed(id)).isNull();
				jobs.run(id);
			}
			assertThat(jobs.invocations()).as("no skipped method was invoked").isZero();
		});
	}

	@Test
	void methodsRunNormallyWhenTheLockIsFree() {
		String id = TestRedis.uniqueKey("skip");
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.object(id)).isEqualTo("ran");
			assertThat(jobs.optional(id)).contains("ran");
			assertThat(jobs.list(id)).containsExactly("ran");
			assertThat(jobs.number(id)).isEqualTo(42);
			assertThat(jobs.flag(id)).isTrue();
			jobs.run(id);
			assertThat(jobs.invocations()).isEqualTo(6);
		});
	}

	@Test
	void throwIsStillTheDefault() {
		String id = TestRedis.uniqueKey("skip");
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "job:" + id)) {
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.throwing(id))
					.withMessageContaining("job:" + id);
			}
			assertThat(jobs.invocations()).isZero();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(key = "'job:' + #id", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
	@interface SkipWhenBusy {

	}

	static class Jobs {

		private final AtomicInteger invocations = new AtomicInteger();

		int invocations() {
			return this.invocations.get();
		}

		private String ran() {
			this.invocations.incrementAndGet();
			return "ran";
		}

		@SkipWhenBusy
		public Object object(String id) {
			return ran();
		}

		@SkipWhenBusy
		public Optional<String> optional(String id) {
			return Optional.of(ran());
		}

		@SkipWhenBusy
		public List<String> list(String id) {
			return List.of(ran());
		}

		@SkipWhenBusy
		public Set<String> set(String id) {
			return Set.of(ran());
		}

		@SkipWhenBusy
		public Map<String, String> map(String id) {
			return Map.of(ran(), "value");
		}

		@SkipWhenBusy
		public SortedMap<String, String> sortedMap(String id) {
			return new TreeMap<>(Map.of(ran(), "value"));
		}

		@SkipWhenBusy
		public ArrayList<String> arrayList(String id) {
			return new ArrayList<>(List.of(ran()));
		}

		@SkipWhenBusy
		public Stream<String> stream(String id) {
			return Stream.of(ran());
		}

		@SkipWhenBusy
		public String[] array(String id) {
			return new String[] { ran() };
		}

		@SkipWhenBusy
		public int number(String id) {
			ran();
			return 42;
		}

		@SkipWhenBusy
		public long bigNumber(String id) {
			ran();
			return 42L;
		}

		@SkipWhenBusy
		public boolean flag(String id) {
			ran();
			return true;
		}

		@SkipWhenBusy
		public char character(String id) {
			return ran().charAt(0);
		}

		@SkipWhenBusy
		public Integer boxed(String id) {
			ran();
			return 42;
		}

		@SkipWhenBusy
		public void run(String id) {
			ran();
		}

		@DistributedLock(key = "'job:' + #id", waitTime = "0")
		public void throwing(String id) {
			ran();
		}

	}

}
