package dev.distlock.observation;

import java.time.Duration;

import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The {@link LockObservationDocumentation observations} of the auto-configured client and
 * advisor: acquisition and locked execution, named and with an outcome, the key as a
 * high-cardinality value only.
 */
class LockObservationTests {

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	@Test
	void lockedCallIsObservedAsAcquisitionThenExecution() {
		String id = TestRedis.uniqueKey("observed");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				context.getBean(Reports.class).write(id);
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasNumberOfObservationsWithNameEqualTo("distlock.acquisition", 1)
					.hasNumberOfObservationsWithNameEqualTo("distlock.execution", 1)
					.forAllObservationsWithNameEqualTo("distlock.acquisition",
							(observation) -> observation.hasContextualNameEqualTo("acquire lock Reports.write")
								.hasLowCardinalityKeyValue("name", "Reports.write")
								.hasLowCardinalityKeyValue("outcome", "acquired")
								.hasHighCardinalityKeyValue("key", "report:" + id))
					.forAllObservationsWithNameEqualTo("distlock.execution",
							(observation) -> observation.hasContextualNameEqualTo("locked Reports.write")
								.hasLowCardinalityKeyValue("name", "Reports.write")
								.hasLowCardinalityKeyValue("outcome", "success")
								.hasHighCardinalityKeyValue("key", "report:" + id)
								.doesNotHaveLowCardinalityKeyValueWithKey("key"));
			});
	}

	@Test
	void methodSeesTheExecutionAsTheCurrentObservation() {
		String id = TestRedis.uniqueKey("current");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				Observation current = context.getBean(Reports.class).current(this.registry, id);
				assertThat(current).isNotNull();
				assertThat(current.getContext().getName()).isEqualTo("distlock.execution");
			});
	}

	@Test
	void failingCallEndsTheExecutionWithAnError() {
		String id = TestRedis.uniqueKey("failing");
		LockTestContexts.withSharedRedis()
			.withBean(TestObservationRegistry.class, () -> this.registry)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				assertThatIllegalStateException().isThrownBy(() -> context.getBean(Reports.class).fail(id));
				TestObservationRegistryAssert.assertThat(this.registry)
					.hasObservationWithNameEqualTo("distlock.execution")
					.that()
					.hasLowCardinalityKeyValue("outcome", "error")
					.hasError();
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
					.hasNumberOfObservationsWithNameEqualTo("distlock.acquisition", 1);
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
