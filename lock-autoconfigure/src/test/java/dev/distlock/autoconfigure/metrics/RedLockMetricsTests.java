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
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.redlock.RedLockNodeMetrics;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * With {@code distlock.store=redlock} and a meter registry, on 3 real
 * {@code redis-server} processes: the lock meters count RedLock acquisitions and holds as
 * they count the Redis client's, and {@value RedLockNodeMetrics#NODE_ACQUISITIONS} counts
 * each node's answers, a node that is down as failed while the others grant. (The
 * {@code Thread.sleep} outlives a fixed lease on purpose: nothing signals its end.)
 */
class RedLockMetricsTests {

	/**
	 * Fresh servers that never granted a lock: their grants count at once, as with
	 * appendfsync always (the restart delay: RedLockAutoConfigurationTests).
	 */
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				DistributedLockAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class))
		// Node timeouts generous for a loaded machine: a crashed node is refused at once.
		.withPropertyValues("distlock.store=redlock", "distlock.redlock.node-timeout=500ms",
				"distlock.redlock.appendfsync-always=true");

	private final List<RedisServerProcess> servers = new ArrayList<>();

	@BeforeEach
	void startNodes() {
		for (int i = 0; i < 3; i++) {
			this.servers.add(RedisServerProcess.startOnFreePort());
		}
	}

	@AfterEach
	void stopNodes() {
		this.servers.forEach(RedisServerProcess::close);
	}

	private String nodes() {
		return String.join(",",
				this.servers.stream().map((server) -> "redis://" + server.host() + ":" + server.port()).toList());
	}

	private static double nodeCount(MeterRegistry registry, RedisServerProcess server, String outcome) {
		FunctionCounter counter = registry.get(RedLockNodeMetrics.NODE_ACQUISITIONS)
			.tag("node", server.host() + ":" + server.port())
			.tag("outcome", outcome)
			.functionCounter();
		return counter.count();
	}

	@Test
	void lockMetersCountRedLockAcquisitionsAndHolds() {
		this.runner.withPropertyValues("distlock.redlock.nodes=" + nodes()).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(RedLockClient.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			LockClient client = context.getBean(LockClient.class);
			LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(10)).withName("job");
			try (LockHandle held = client.lock("metered", options)) {
				assertThat(registry.get("distlock.hold.active").tag("name", "job").longTaskTimer().activeTasks())
					.isEqualTo(1);
				try (RedLockClient other = RedLockClient.builder(List.of(nodes().split(",")))
					.nodeTimeout(Duration.ofMillis(500))
					.appendfsyncAlways(true)
					.build()) {
					other.checkNodes(Duration.ofSeconds(5));
					assertThat(other.tryLock("metered", options)).isEmpty();
				}
				assertThat(client.tryLock("other", options).map((handle) -> {
					handle.release();
					return true;
				})).contains(true);
			}
			assertThat(
					registry.get("distlock.acquisition").tag("name", "job").tag("outcome", "acquired").timer().count())
				.isEqualTo(2);
			assertThat(registry.get("distlock.hold").tag("name", "job").tag("outcome", "released").timer().count())
				.isEqualTo(2);
			assertThat(registry.get("distlock.hold.active").tag("name", "job").longTaskTimer().activeTasks()).isZero();
			try (RedLockClient other = RedLockClient.builder(List.of(nodes().split(",")))
				.nodeTimeout(Duration.ofMillis(500))
				.appendfsyncAlways(true)
				.build()) {
				other.checkNodes(Duration.ofSeconds(5));
				try (LockHandle elsewhere = other.lock("busy", options)) {
					assertThat(client.tryLock("busy", options)).isEmpty();
				}
			}
			assertThat(registry.get("distlock.acquisition")
				.tag("name", "job")
				.tag("outcome", "not_acquired")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void aFixedLeaseOutlivedCountsAsLostOnRelease() {
		this.runner.withPropertyValues("distlock.redlock.nodes=" + nodes(), "distlock.redlock.node-timeout=300ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				LockClient client = context.getBean(LockClient.class);
				LockHandle held = client.lock("outlived",
						new LockOptions(Duration.ZERO, Duration.ofSeconds(1)).withName("short"));
				Thread.sleep(1100);
				assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(held::release);
				assertThat(registry.get("distlock.lease.lost").tag("name", "short").counter().count()).isEqualTo(1);
				assertThat(
						registry.get("distlock.hold").tag("name", "short").tag("outcome", "lease_lost").timer().count())
					.isEqualTo(1);
			});
	}

	@Test
	void nodeCountersShowGrantsRefusalsAndANodeThatIsDown() {
		this.runner.withPropertyValues("distlock.redlock.nodes=" + nodes()).run((context) -> {
			assertThat(context).hasNotFailed();
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			LockClient client = context.getBean(LockClient.class);
			LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(10));
			client.lock("counted", options).release();
			// A majority decides the grant: the third node's may be counted after lock
			// returned.
			for (RedisServerProcess server : this.servers) {
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(
							() -> assertThat(nodeCount(registry, server, RedLockNodeMetrics.GRANTED)).isEqualTo(1));
				assertThat(nodeCount(registry, server, RedLockNodeMetrics.FAILED)).isZero();
			}
			try (RedLockClient other = RedLockClient.builder(List.of(nodes().split(",")))
				.nodeTimeout(Duration.ofSeconds(2))
				.appendfsyncAlways(true)
				.build()) {
				other.checkNodes(Duration.ofSeconds(5));
				try (LockHandle elsewhere = other.lock("held", options)) {
					// A majority decides the grant: wait until every node holds the key,
					// so
					// that every node refuses the next attempt.
					await().atMost(Duration.ofSeconds(10))
						.until(() -> other.nodeOutcomes().stream().allMatch((node) -> node.granted() == 1));
					assertThat(client.tryLock("held", options)).isEmpty();
				}
			}
			// The attempt is decided by the first two refusals: the third node's reply
			// may
			// be counted after tryLock returned.
			for (RedisServerProcess server : this.servers) {
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(
							() -> assertThat(nodeCount(registry, server, RedLockNodeMetrics.REFUSED)).isEqualTo(1));
			}
			this.servers.get(2).crash();
			for (int i = 0; i < 5; i++) {
				client.lock("with-one-down-" + i, options).release();
			}
			RedisServerProcess down = this.servers.get(2);
			assertThat(nodeCount(registry, down, RedLockNodeMetrics.GRANTED)).isEqualTo(1);
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(nodeCount(registry, down, RedLockNodeMetrics.FAILED)
						+ nodeCount(registry, down, RedLockNodeMetrics.TIMED_OUT))
					.isEqualTo(5));
			for (RedisServerProcess up : this.servers.subList(0, 2)) {
				assertThat(nodeCount(registry, up, RedLockNodeMetrics.GRANTED)).isEqualTo(6);
				assertThat(nodeCount(registry, up, RedLockNodeMetrics.FAILED)).isZero();
			}
		});
	}

}
