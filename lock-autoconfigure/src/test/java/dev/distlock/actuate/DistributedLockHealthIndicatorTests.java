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

package dev.distlock.actuate;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLockHealthIndicator} against real Redis: the scripts and the release
 * subscription decide the status; the details also show the eviction policy
 * ({@code EvictionPolicyTests}).
 */
class DistributedLockHealthIndicatorTests {

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void start() {
		this.connectionFactory = TestRedis.connectionFactory(RedisTestServers.shared());
		this.client = RedisLockClient.builder(TestRedis.template(this.connectionFactory)).releaseMessages(true).build();
	}

	@AfterEach
	void stop() {
		this.client.close();
		this.connectionFactory.destroy();
	}

	@Test
	@SuppressWarnings("unchecked")
	void upWithoutPubSubWhenRedisHasTheScripts() {
		RedisLockClient backoffOnly = RedisLockClient.builder(TestRedis.template(this.connectionFactory)).build();
		Health health;
		try {
			health = new DistributedLockHealthIndicator(backoffOnly.monitor()).health();
		}
		finally {
			backoffOnly.close();
		}
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails())
			.containsOnlyKeys("address", "scripts", "locking", "maxmemoryPolicy", "heldLocks", "waiters")
			.containsEntry("address", RedisTestServers.shared().host() + ":" + RedisTestServers.shared().port())
			.containsEntry("locking", "ok");
		assertThat((Map<String, ?>) health.getDetails().get("maxmemoryPolicy")).containsKeys("maxmemory", "policy",
				"evictsLockKeys");
		assertThat((Map<String, ?>) health.getDetails().get("scripts")).containsOnlyKeys("acquire", "release",
				"delete-if-equal", "renew", "fence", "inspect", "shared-acquire", "shared-release", "multi-acquire");
	}

	@Test
	void downUntilTheReleaseChannelIsSubscribed() {
		DistributedLockHealthIndicator indicator = new DistributedLockHealthIndicator(this.client.monitor());
		Health unsubscribed = indicator.health();
		assertThat(unsubscribed.getStatus()).isEqualTo(Status.DOWN);
		assertThat(unsubscribed.getDetails()).containsEntry("releaseSubscription",
				Map.of("channel", this.client.releaseChannel(), "subscribed", false));
		this.client.start();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.client.monitor().releaseSubscription().orElseThrow().isSubscribed());
		Health subscribed = indicator.health();
		assertThat(subscribed.getStatus()).isEqualTo(Status.UP);
		assertThat(subscribed.getDetails()).containsEntry("releaseSubscription",
				Map.of("channel", this.client.releaseChannel(), "subscribed", true));
	}

}
