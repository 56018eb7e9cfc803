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

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.redis.protocol.RedisAddress;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A user whose Redis cannot be reached learns from distlock's own messages where it
 * tried: the release subscription's retries, the health details and
 * {@link LockUnavailableException} name {@code host:port}, the nodes of a cluster, or the
 * master and sentinels of Sentinel.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnreachableRedisMessagesTests {

	private int port;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void start() throws IOException {
		try (ServerSocket free = new ServerSocket(0)) {
			this.port = free.getLocalPort();
		}
		this.connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", this.port),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(1)).build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.client = RedisLockClient.builder(TestRedis.template(this.connectionFactory)).releaseMessages(true).build();
		this.client.start();
	}

	@AfterEach
	void stop() {
		this.client.close();
		this.connectionFactory.destroy();
	}

	@Test
	void everyMessageNamesTheAddressItTried(CapturedOutput output) {
		String address = "127.0.0.1:" + this.port;
		assertThatExceptionOfType(LockUnavailableException.class)
			.isThrownBy(() -> this.client.lock("lock:unreachable", LockOptions.renewing(Duration.ZERO)))
			.withMessageStartingWith(
					"Could not acquire lock 'lock:unreachable': Redis at " + address + " is unavailable (");
		Health health = new DistributedLockHealthIndicator(this.client.monitor()).health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("address", address);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(output).contains("Could not subscribe to lock release channel '")
				.contains("' at " + address + " yet, retrying every"));
	}

	@Test
	void addressOfAClusterAndOfSentinel() {
		LettuceConnectionFactory cluster = new LettuceConnectionFactory(
				new RedisClusterConfiguration(List.of("10.0.0.1:7000", "10.0.0.2:7001")));
		assertThat(RedisAddress.of(cluster)).isEqualTo("cluster nodes 10.0.0.1:7000, 10.0.0.2:7001");
		LettuceConnectionFactory sentinel = new LettuceConnectionFactory(
				new RedisSentinelConfiguration("mymaster", Set.of("10.0.0.3:26379")));
		assertThat(RedisAddress.of(sentinel)).isEqualTo("sentinel master mymaster via 10.0.0.3:26379");
		assertThat(RedisAddress.of(null)).isEqualTo("an unknown address (no connection factory)");
	}

}
