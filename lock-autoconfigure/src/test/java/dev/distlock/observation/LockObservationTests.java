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

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The {@link LockObservationDocumentation observations} of the auto-configured clients
 * and advisor: acquisition and hold, named and with an outcome, the key as a
 * high-cardinality value only; the hold is the current observation inside a locked
 * method.
 */
class LockObservationTests {

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	@Test
	void lockedCallIsObservedAsAcquisitionThenHold() {
		String id = TestRedis.uniqueKey("observed");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				context.getBean(Reports.class).write(id);
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasNumberOfObservationsWithNameEqualTo("distlock.acquisition", 1)
					.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 1)
					.forAllObservationsWithNameEqualTo("distlock.acquisition",
							(observation) -> observation.hasContextualNameEqualTo("acquire lock Reports.write")
								.hasLowCardinalityKeyValue("name", "Reports.write")
								.hasLowCardinalityKeyValue("outcome", "acquired")
								.hasHighCardinalityKeyValue("key", "report:" + id))
					.forAllObservationsWithNameEqualTo("distlock.hold",
							(observation) -> observation.hasContextualNameEqualTo("locked Reports.write")
								.hasLowCardinalityKeyValue("name", "Reports.write")
								.hasLowCardinalityKeyValue("outcome", "released")
								.doesNotHaveError()
								.hasHighCardinalityKeyValue("key", "report:" + id)
								.doesNotHaveLowCardinalityKeyValueWithKey("key"));
			});
	}

	@Test
	void methodSeesTheHoldAsTheCurrentObservation() {
		String id = TestRedis.uniqueKey("current");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				Observation current = context.getBean(Reports.class).current(this.registry, id);
				assertThat(current).isNotNull();
				assertThat(current.getContext().getName()).isEqualTo("distlock.hold");
			});
	}

	@Test
	void failingCallEndsTheHoldWithTheMethodsError() {
		String id = TestRedis.uniqueKey("failing");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				assertThatIllegalStateException().isThrownBy(() -> context.getBean(Reports.class).fail(id));
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasObservationWithNameEqualTo("distlock.hold")
					.that()
					.hasLowCardinalityKeyValue("outcome", "released")
					.hasError()
					.thenError()
					.isInstanceOf(IllegalStateException.class)
					.hasMessage("failed");
			});
	}

	@Test
	void lockHeldElsewhereIsObservedAsNotAcquired() {
		String key = TestRedis.uniqueKey("busy");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.run((context) -> {
				LockClient client = context.getBean(LockClient.class);
				try (HeldLock held = HeldLock.elsewhere(client, key)) {
					this.registry.clear();
					assertThat(client.tryLock(key, LockOptions.renewing(Duration.ZERO).withName("busy"))).isEmpty();
				}
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasObservationWithNameEqualTo("distlock.acquisition")
					.that()
					.hasLowCardinalityKeyValue("name", "busy")
					.hasLowCardinalityKeyValue("outcome", "not_acquired");
			});
	}

	@Test
	void reentrantAcquisitionIsNotObserved() {
		String key = TestRedis.uniqueKey("reentrant");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.run((context) -> {
				LockClient client = context.getBean(LockClient.class);
				try (LockHandle outer = client.lock(key); LockHandle inner = client.lock(key)) {
					assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
				}
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasNumberOfObservationsWithNameEqualTo("distlock.acquisition", 1)
					.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 1);
			});
	}

	@Test
	void programmaticHoldIsAChildOfTheCallersObservationUntilReleased() {
		String key = TestRedis.uniqueKey("programmatic");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.run((context) -> {
				LockClient client = context.getBean(LockClient.class);
				Observation caller = Observation.start("caller", this.registry);
				LockHandle handle;
				try (Observation.Scope scope = caller.openScope()) {
					handle = client.lock(key, LockOptions.renewing(Duration.ZERO).withName("report"));
				}
				assertThat(handle.observation().getContext().getName()).isEqualTo("distlock.hold");
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasObservationWithNameEqualTo("distlock.hold")
					.that()
					.hasBeenStarted()
					.isNotStopped()
					.hasParentObservationEqualTo(caller);
				handle.release();
				TestObservationRegistryAssert.assertThat(this.registry)
					.forAllObservationsWithNameEqualTo("distlock.acquisition",
							(observation) -> observation.hasParentObservationEqualTo(caller))
					.hasObservationWithNameEqualTo("distlock.hold")
					.that()
					.hasBeenStopped()
					.hasLowCardinalityKeyValue("name", "report")
					.hasLowCardinalityKeyValue("outcome", "released")
					.hasHighCardinalityKeyValue("key", key);
			});
	}

	@Test
	void holdWhoseKeyWasTakenEndsAsLeaseLost() {
		String key = TestRedis.uniqueKey("lost");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.run((context) -> {
				LockHandle handle = context.getBean(LockClient.class)
					.lock(key, LockOptions.renewing(Duration.ZERO).withName("lost"));
				context.getBean(StringRedisTemplate.class).delete(key);
				assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasObservationWithNameEqualTo("distlock.hold")
					.that()
					.hasBeenStopped()
					.hasLowCardinalityKeyValue("outcome", "lease_lost");
			});
	}

	@Test
	void inMemoryClientObservesAcquisitionAndHoldAlike() {
		String id = TestRedis.uniqueKey("in-memory");
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues("distlock.store=in-memory")
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				Observation current = context.getBean(Reports.class).current(this.registry, id);
				assertThat(current.getContext().getName()).isEqualTo("distlock.hold");
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasNumberOfObservationsWithNameEqualTo("distlock.acquisition", 1)
					.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 1)
					.forAllObservationsWithNameEqualTo("distlock.acquisition",
							(observation) -> observation.hasLowCardinalityKeyValue("name", "Reports.current")
								.hasLowCardinalityKeyValue("outcome", "acquired"))
					.forAllObservationsWithNameEqualTo("distlock.hold",
							(observation) -> observation.hasContextualNameEqualTo("locked Reports.current")
								.hasLowCardinalityKeyValue("name", "Reports.current")
								.hasLowCardinalityKeyValue("outcome", "released")
								.hasHighCardinalityKeyValue("key", "report:" + id));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		@DistributedLock("'report:' + #id")
		public void write(String id) {
		}

		@DistributedLock("'report:' + #id")
		public Observation current(TestObservationRegistry registry, String id) {
			return registry.getCurrentObservation();
		}

		@DistributedLock("'report:' + #id")
		public void fail(String id) {
			throw new IllegalStateException("failed");
		}

	}

}
