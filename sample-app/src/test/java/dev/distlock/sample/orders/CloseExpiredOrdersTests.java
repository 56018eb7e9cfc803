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

package dev.distlock.sample.orders;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 3 on two instances sharing one Redis and one database: when both run the same
 * tick, one closes the expired orders and the other skips. The instance that wins the
 * lock is held inside its work by a {@link TickGate} until the other has returned, so the
 * overlap is certain.
 * <p>
 * The job keeps its lock for a minimum time after each run ({@link MinimumHoldTests});
 * here it is short, and each tick starts once the previous tick's lock has expired.
 */
class CloseExpiredOrdersTests {

	private static final String JOB_LOCK = "lock:job:close-expired-orders";

	private static final TickGate gate = new TickGate();

	private static SampleInstances instances;

	private static OrderRepository orders;

	@BeforeAll
	static void startInstances() {
		instances = TestCluster.start(2, RedisTestServers.shared(), TestDatabase.h2(),
				(builder) -> builder.sources(GatedRepositoryConfiguration.class)
					.initializers((context) -> context.getBeanFactory().registerSingleton("tickGate", gate)),
				"--sample.orders.unpaid-max-age=30m", "--sample.orders.close-min-hold-time=200ms");
		orders = instances.bean(0, OrderRepository.class);
	}

	@AfterAll
	static void stopInstances() {
		instances.close();
	}

	@Test
	void eachTickIsRunByOneInstanceWhileTheOtherSkips() throws Exception {
		for (int tick = 1; tick <= 3; tick++) {
			awaitJobLockExpired();
			List<String> expired = place(10, OrderStatus.UNPAID, Duration.ofHours(1));
			List<String> fresh = place(3, OrderStatus.UNPAID, Duration.ofMinutes(5));
			List<String> paid = place(3, OrderStatus.PAID, Duration.ofHours(1));
			gate.close();
			CompletableFuture<CloseRun> first = CompletableFuture.supplyAsync(() -> job(0).runOnce());
			CompletableFuture<CloseRun> second = CompletableFuture.supplyAsync(() -> job(1).runOnce());
			CompletableFuture.anyOf(first, second).get(20, TimeUnit.SECONDS);
			CloseRun skipped = first.isDone() ? first.join() : second.join();
			assertThat(first.isDone() && second.isDone()).as("the winner is still held at the gate").isFalse();
			assertThat(skipped).as("tick %d on the instance that lost the lock", tick).isEqualTo(CloseRun.skipped());
			gate.open();
			CloseRun ran = (first.join() == skipped) ? second.get(20, TimeUnit.SECONDS)
					: first.get(20, TimeUnit.SECONDS);
			assertThat(ran).as("tick %d on the instance that won the lock", tick).isEqualTo(CloseRun.ran(10));
			assertThat(expired).allSatisfy((id) -> assertThat(status(id)).isEqualTo(OrderStatus.CLOSED));
			assertThat(fresh).allSatisfy((id) -> assertThat(status(id)).isEqualTo(OrderStatus.UNPAID));
			assertThat(paid).allSatisfy((id) -> assertThat(status(id)).isEqualTo(OrderStatus.PAID));
		}
	}

	@Test
	void tickWithoutCompetitionRuns() {
		awaitJobLockExpired();
		List<String> expired = place(2, OrderStatus.UNPAID, Duration.ofHours(2));
		assertThat(job(1).runOnce()).isEqualTo(CloseRun.ran(2));
		assertThat(orders.find(expired.get(0))).hasValueSatisfying((order) -> assertThat(order.closedAt()).isNotNull());
	}

	private static void awaitJobLockExpired() {
		StringRedisTemplate redis = instances.bean(0, StringRedisTemplate.class);
		await().atMost(Duration.ofSeconds(10)).until(() -> !redis.hasKey(JOB_LOCK));
	}

	private static List<String> place(int count, OrderStatus status, Duration age) {
		Instant createdAt = Instant.now().minus(age);
		return IntStream.range(0, count).mapToObj((i) -> {
			Order order = new Order(UUID.randomUUID().toString(), status, createdAt, null);
			orders.insert(order);
			return order.id();
		}).toList();
	}

	private static OrderStatus status(String id) {
		return orders.find(id).orElseThrow().status();
	}

	private static CloseExpiredOrdersJob job(int instance) {
		return instances.bean(instance, CloseExpiredOrdersJob.class);
	}

	/**
	 * Test-only configuration of both instances: the gated repository. Not a
	 * {@code @Configuration}, so that the application's component scan never picks it up.
	 */
	static class GatedRepositoryConfiguration {

		@Bean
		@Primary
		OrderRepository gatedOrderRepository(JdbcClient jdbc, TickGate tickGate) {
			return new GatedOrderRepository(jdbc, tickGate);
		}

	}

}
