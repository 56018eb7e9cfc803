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
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 3's minimum hold: schedulers never fire at exactly the same moment, and a run
 * can take a few milliseconds. An instance whose tick fires just after another instance
 * finished a fast run of the same tick (its clock a little behind) must still skip it, so
 * the lock is kept, not deleted, until the minimum hold has passed. The minimum hold here
 * is ten minutes, so "just after" needs no timing; the instances use their own key prefix
 * so that the kept lock does not hold up the other tests on the shared Redis.
 */
class MinimumHoldTests {

	private static final Duration MIN_HOLD = Duration.ofMinutes(10);

	@Test
	void instanceFiringJustAfterAFastRunOfTheSameTickSkipsIt() {
		String prefix = "min-hold-" + UUID.randomUUID() + ":";
		try (SampleInstances instances = TestCluster.start(2, RedisTestServers.shared(), TestDatabase.h2(),
				"--sample.orders.unpaid-max-age=30m",
				"--sample.orders.close-min-hold-time=" + MIN_HOLD.toMinutes() + "m",
				"--distlock.key-prefix=" + prefix)) {
			OrderRepository orders = instances.bean(0, OrderRepository.class);
			List<String> expired = place(orders, 4);
			assertThat(job(instances, 0).runOnce()).as("the first instance's fast run").isEqualTo(CloseRun.ran(4));
			assertThat(expired).allSatisfy((id) -> assertThat(status(orders, id)).isEqualTo(OrderStatus.CLOSED));

			List<String> expiredSince = place(orders, 2);
			assertThat(job(instances, 1).runOnce()).as("the second instance, firing just after")
				.isEqualTo(CloseRun.skipped());
			assertThat(expiredSince).as("left for the next tick")
				.allSatisfy((id) -> assertThat(status(orders, id)).isEqualTo(OrderStatus.UNPAID));

			Long keptFor = instances.bean(0, StringRedisTemplate.class)
				.getExpire(prefix + "lock:job:close-expired-orders", TimeUnit.MILLISECONDS);
			assertThat(keptFor).as("the lock left to expire at the end of the minimum hold")
				.isPositive()
				.isLessThanOrEqualTo(MIN_HOLD.toMillis());
		}
	}

	private static List<String> place(OrderRepository orders, int count) {
		Instant createdAt = Instant.now().minus(Duration.ofHours(1));
		return IntStream.range(0, count).mapToObj((i) -> {
			Order order = new Order(UUID.randomUUID().toString(), OrderStatus.UNPAID, createdAt, null);
			orders.insert(order);
			return order.id();
		}).toList();
	}

	private static OrderStatus status(OrderRepository orders, String id) {
		return orders.find(id).orElseThrow().status();
	}

	private static CloseExpiredOrdersJob job(SampleInstances instances, int instance) {
		return instances.bean(instance, CloseExpiredOrdersJob.class);
	}

}
