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
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The job as the schedulers of two instances run it, every second (with a minimum hold
 * shorter than that): expired unpaid orders get closed, others are left alone.
 */
class ScheduledCloseTests {

	@Test
	void schedulersOfBothInstancesCloseExpiredOrders() {
		try (SampleInstances instances = TestCluster.start(2, RedisTestServers.shared(), TestDatabase.h2(),
				"--sample.orders.close-cron=* * * * * *", "--sample.orders.unpaid-max-age=10m",
				"--sample.orders.close-min-hold-time=500ms")) {
			OrderRepository orders = instances.bean(0, OrderRepository.class);
			List<Order> expired = place(orders, 20, OrderStatus.UNPAID, Duration.ofMinutes(11));
			List<Order> fresh = place(orders, 5, OrderStatus.UNPAID, Duration.ofMinutes(9));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(expired)
					.allSatisfy((order) -> assertThat(orders.find(order.id()).orElseThrow().status())
						.isEqualTo(OrderStatus.CLOSED)));
			assertThat(fresh).allSatisfy((order) -> assertThat(orders.find(order.id()).orElseThrow().status())
				.isEqualTo(OrderStatus.UNPAID));
		}
	}

	private static List<Order> place(OrderRepository orders, int count, OrderStatus status, Duration age) {
		Instant createdAt = Instant.now().minus(age);
		return IntStream.range(0, count).mapToObj((i) -> {
			Order order = new Order(UUID.randomUUID().toString(), status, createdAt, null);
			orders.insert(order);
			return order;
		}).toList();
	}

}
