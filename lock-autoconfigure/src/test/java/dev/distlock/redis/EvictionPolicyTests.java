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

package dev.distlock.redis;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23: a Redis whose {@code maxmemory-policy} may evict lock keys (a memory limit
 * and any policy but {@code noeviction}) is shown by the health details and warned of
 * when the client starts; against a real {@code redis-server} started with
 * {@code maxmemory 2mb} and {@code maxmemory-policy volatile-ttl}, then reconfigured with
 * {@code CONFIG SET}.
 */
@ExtendWith(OutputCaptureExtension.class)
class EvictionPolicyTests {

	private static final String WARNING = "may evict lock keys: maxmemory is 2097152 bytes with maxmemory-policy ";

	private RedisServerProcess server;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	@BeforeEach
	void start() {
		this.server = RedisServerProcess.startOnFreePort("--maxmemory", "2mb", "--maxmemory-policy", "volatile-ttl");
		this.connectionFactory = TestRedis.connectionFactory(this.server);
		this.redis = TestRedis.template(this.connectionFactory);
	}

	@AfterEach
	void stop() {
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void volatilePolicyWithAMemoryLimitIsWarnedOfOnceAtStartupAndShownByTheHealth(CapturedOutput output) {
		try (RedisLockClient client = RedisLockClient.builder(this.redis).build()) {
			client.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> output.toString().contains(WARNING + "volatile-ttl"));
			Health health = new DistributedLockHealthIndicator(client.monitor()).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(policy(health)).containsEntry("maxmemory", 2097152L)
				.containsEntry("policy", "volatile-ttl")
				.containsEntry("evictsLockKeys", true)
				.hasEntrySatisfying("advice",
						(advice) -> assertThat((String) advice).contains("Set maxmemory-policy noeviction"));
			client.stop();
			client.start();
			new EvictionPolicyWarning(client.monitor()::evictionPolicies).check();
		}
		assertThat(output.toString().split(WARNING, -1))
			.as("warned once by the client, however often started, and once by the check run here")
			.hasSize(3);
	}

	@Test
	void allKeysPolicyEvictsLockKeysToo(CapturedOutput output) {
		setPolicy("allkeys-lru");
		try (RedisLockClient client = RedisLockClient.builder(this.redis).build()) {
			assertThat(policy(new DistributedLockHealthIndicator(client.monitor()).health()))
				.containsEntry("policy", "allkeys-lru")
				.containsEntry("evictsLockKeys", true);
			new EvictionPolicyWarning(client.monitor()::evictionPolicies).check();
		}
		assertThat(output).contains(WARNING + "allkeys-lru");
	}

	@Test
	void noEvictionIsSafeAndNotWarnedOf(CapturedOutput output) {
		setPolicy("noeviction");
		try (RedisLockClient client = RedisLockClient.builder(this.redis).build()) {
			assertThat(policy(new DistributedLockHealthIndicator(client.monitor()).health())).containsOnly(
					Map.entry("maxmemory", 2097152L), Map.entry("policy", "noeviction"),
					Map.entry("evictsLockKeys", false));
			new EvictionPolicyWarning(client.monitor()::evictionPolicies).check();
		}
		assertThat(output).doesNotContain("may evict lock keys");
	}

	@Test
	void noMemoryLimitIsSafeWhateverThePolicy() {
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setConfig("maxmemory", "0");
			return null;
		});
		try (RedisLockClient client = RedisLockClient.builder(this.redis).build()) {
			assertThat(policy(new DistributedLockHealthIndicator(client.monitor()).health()))
				.containsEntry("maxmemory", 0L)
				.containsEntry("policy", "volatile-ttl")
				.containsEntry("evictsLockKeys", false);
		}
	}

	private void setPolicy(String policy) {
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setConfig("maxmemory-policy", policy);
			return null;
		});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> policy(Health health) {
		assertThat(health.getDetails()).containsKey("maxmemoryPolicy");
		return (Map<String, Object>) health.getDetails().get("maxmemoryPolicy");
	}

}
