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

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One timer per thing measured, whichever records it: the application's observation
 * registry, from the lock observations, where it records observations as timers (Spring
 * Boot's metrics and observation auto-configuration); {@code LockMetrics}, with the same
 * names and tags, where it does not. Each test takes two locks and fails to take a third,
 * all named {@code job}, and lists every {@code distlock.*} meter with its tags and
 * count.
 */
class LockMeterSourcesTests {

	/** The meters when the lock observations are recorded as timers. */
	private static final List<String> FROM_OBSERVATIONS = List.of(
			"distlock.acquisition TIMER error=none,kind=exclusive,mode=exclusive,name=job,outcome=acquired count=2",
			"distlock.acquisition TIMER error=none,kind=exclusive,mode=exclusive,name=job,outcome=not_acquired count=1",
			"distlock.acquisition.active LONG_TASK_TIMER kind=exclusive,mode=exclusive,name=job",
			"distlock.hold TIMER error=none,kind=exclusive,mode=exclusive,name=job,outcome=released count=2",
			"distlock.hold.active LONG_TASK_TIMER kind=exclusive,mode=exclusive,name=job",
			"distlock.renewals COUNTER ");

	/** The meters when {@code LockMetrics} records the timers. */
	private static final List<String> FROM_LOCK_METRICS = List.of(
			"distlock.acquisition TIMER error=none,kind=exclusive,mode=exclusive,name=job,outcome=acquired count=2",
			"distlock.acquisition TIMER error=none,kind=exclusive,mode=exclusive,name=job,outcome=not_acquired count=1",
			"distlock.hold TIMER error=none,kind=exclusive,mode=exclusive,name=job,outcome=released count=2",
			"distlock.hold.active LONG_TASK_TIMER kind=exclusive,mode=exclusive,name=job",
			"distlock.renewals COUNTER ");

	/**
	 * The timers of a read, a write and a semaphore's permit, whichever records them: the
	 * permits tag only on the semaphore's.
	 */
	private static final List<String> SHARED_KINDS = List.of(
			"distlock.acquisition TIMER error=none,kind=read-write,mode=read,name=shared,outcome=acquired count=1",
			"distlock.acquisition TIMER error=none,kind=read-write,mode=write,name=shared,outcome=acquired count=1",
			"distlock.acquisition TIMER error=none,kind=semaphore,mode=exclusive,name=shared,outcome=acquired,permits=5 count=1",
			"distlock.hold TIMER error=none,kind=read-write,mode=read,name=shared,outcome=released count=1",
			"distlock.hold TIMER error=none,kind=read-write,mode=write,name=shared,outcome=released count=1",
			"distlock.hold TIMER error=none,kind=semaphore,mode=exclusive,name=shared,outcome=released,permits=5 count=1",
			"distlock.hold.active LONG_TASK_TIMER kind=read-write,mode=read,name=shared",
			"distlock.hold.active LONG_TASK_TIMER kind=read-write,mode=write,name=shared",
			"distlock.hold.active LONG_TASK_TIMER kind=semaphore,mode=exclusive,name=shared,permits=5");

	private final ApplicationContextRunner metrics = LockTestContexts.withSharedRedis()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
						SimpleMetricsExportAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class))
		.withUserConfiguration(Jobs.class);

	private final ApplicationContextRunner metricsAndObservations = this.metrics
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class));

	@Test
	void observationsRecordTheTimersWhereTheyAreRecordedAsMeters() {
		this.metricsAndObservations
			.run((context) -> assertThat(lockEveryWay(context)).containsExactlyInAnyOrderElementsOf(FROM_OBSERVATIONS));
	}

	@Test
	void lockMetricsRecordTheTimersWithoutObservations() {
		this.metrics
			.run((context) -> assertThat(lockEveryWay(context)).containsExactlyInAnyOrderElementsOf(FROM_LOCK_METRICS));
	}

	@Test
	void lockMetricsRecordTheTimersWhenLockObservationsAreSwitchedOff() {
		this.metricsAndObservations.withPropertyValues("management.observations.enable.distlock=false")
			.run((context) -> assertThat(lockEveryWay(context)).containsExactlyInAnyOrderElementsOf(FROM_LOCK_METRICS));
	}

	@Test
	void eachTimerIsRecordedOnceWhenOnlyTheHoldObservationIsSwitchedOff() {
		this.metricsAndObservations.withPropertyValues("management.observations.enable.distlock.hold=false")
			.run((context) -> assertThat(lockEveryWay(context)).containsExactlyInAnyOrderElementsOf(FROM_OBSERVATIONS));
	}

	@Test
	void lockMetricsRecordTheTimersWhenTheObservationRegistryHasNoHandler() {
		this.metrics.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> assertThat(lockEveryWay(context)).containsExactlyInAnyOrderElementsOf(FROM_LOCK_METRICS));
	}

	@Test
	void lockMetricsRecordTheTimersWhenTheObservationRegistryHasNoMeterHandler() {
		TestObservationRegistry observations = TestObservationRegistry.create();
		LockTestContexts.withSharedRedis()
			.withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class))
			.withUserConfiguration(Jobs.class)
			.withBean(SimpleMeterRegistry.class)
			.withBean(TestObservationRegistry.class, () -> observations)
			.run((context) -> {
				assertThat(lockEveryWay(context)).containsExactlyInAnyOrderElementsOf(FROM_LOCK_METRICS);
				TestObservationRegistryAssert.assertThat(observations)
					.hasNumberOfObservationsWithNameEqualTo("distlock.acquisition", 3)
					.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 2);
			});
	}

	@Test
	void observationsTagTheTimersOfSharedKindsAsLockMetricsDo() {
		this.metricsAndObservations
			.run((context) -> assertThat(lockSharedKinds(context)).containsExactlyInAnyOrderElementsOf(SHARED_KINDS));
	}

	@Test
	void lockMetricsTagTheTimersOfSharedKindsAsTheObservationsDo() {
		this.metrics
			.run((context) -> assertThat(lockSharedKinds(context)).containsExactlyInAnyOrderElementsOf(SHARED_KINDS));
	}

	/**
	 * Takes and releases a read lock, a write lock and a permit of a semaphore of 5, each
	 * on its own key, and describes the timers of their name.
	 */
	private static List<String> lockSharedKinds(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		LockClient client = context.getBean(LockClient.class);
		LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(30)).withName("shared");
		client.lock(TestRedis.uniqueKey("read"), options.withMode(LockMode.READ)).release();
		client.lock(TestRedis.uniqueKey("write"), options.withMode(LockMode.WRITE)).release();
		client.lock(TestRedis.uniqueKey("permits"), options.withPermits(5)).release();
		return context.getBean(MeterRegistry.class)
			.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith("distlock.")
					&& "shared".equals(meter.getId().getTag("name")) && meter.getId().getTag("kind") != null
					&& !meter.getId().getName().equals("distlock.acquisition.active"))
			.map(LockMeterSourcesTests::describe)
			.toList();
	}

	/**
	 * Runs a locked method, holds a lock by hand (checking that it counts as held while
	 * held), fails to take a lock held elsewhere, and describes the meters.
	 */
	private static List<String> lockEveryWay(AssertableApplicationContext context) throws Exception {
		assertThat(context).hasNotFailed();
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		LockClient client = context.getBean(LockClient.class);
		LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(30)).withName("job");
		context.getBean(Job.class).run(TestRedis.uniqueKey("annotated"));
		try (LockHandle handle = client.lock(TestRedis.uniqueKey("programmatic"), options)) {
			assertThat(registry.get("distlock.hold.active").tag("name", "job").longTaskTimer().activeTasks())
				.isEqualTo(1);
		}
		String busy = TestRedis.uniqueKey("busy");
		try (RedisLockClient elsewhere = RedisLockClient.builder(context.getBean(StringRedisTemplate.class)).build();
				HeldLock held = HeldLock.elsewhere(elsewhere, busy)) {
			assertThat(client.tryLock(busy, options)).isEmpty();
		}
		assertThat(registry.get("distlock.hold.active").tag("name", "job").longTaskTimer().activeTasks()).isZero();
		return registry.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith("distlock."))
			.map(LockMeterSourcesTests::describe)
			.toList();
	}

	private static String describe(Meter meter) {
		Meter.Id id = meter.getId();
		String tags = id.getTags()
			.stream()
			.map((tag) -> tag.getKey() + "=" + tag.getValue())
			.collect(Collectors.joining(","));
		String count = (meter instanceof Timer timer) ? " count=" + timer.count() : "";
		return id.getName() + " " + id.getType() + " " + tags + count;
	}

	@Configuration(proxyBeanMethods = false)
	static class Jobs {

		@Bean
		Job job() {
			return new Job();
		}

	}

	static class Job {

		@DistributedLock(key = "'meters:' + #id", name = "job", waitTime = "0s", leaseTime = "30s")
		public void run(String id) {
		}

	}

}
