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

package dev.distlock.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockOptions;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.MasterWithReplica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code distlock.replication.min-replicas-acked} reaches the auto-configured client: an
 * annotated method runs once the replica acknowledged its grant, and does not run when
 * the replica sleeps; its key is free again afterwards.
 */
class ReplicaAcknowledgementAutoConfigurationTests {

	private static MasterWithReplica servers;

	@BeforeAll
	static void startServers() {
		servers = new MasterWithReplica();
	}

	@AfterAll
	static void stopServers() throws IOException {
		servers.close();
	}

	private ApplicationContextRunner runner() {
		return LockTestContexts.withRedis(servers.master)
			.withUserConfiguration(StockConfig.class)
			.withPropertyValues("distlock.replication.min-replicas-acked=1", "distlock.replication.ack-timeout=100ms",
					"distlock.wait-time=0s");
	}

	@Test
	void annotatedMethodRunsOnceTheReplicaAcknowledged() {
		runner().run((context) -> {
			Stock stock = context.getBean(Stock.class);
			stock.take("25");
			assertThat(stock.runs()).isEqualTo(1);
		});
	}

	@Test
	void annotatedMethodDoesNotRunWhenTheReplicaDoesNotAcknowledge() throws IOException {
		runner().run((context) -> {
			Stock stock = context.getBean(Stock.class);
			servers.sleepReplica(Duration.ofSeconds(2));
			assertThatExceptionOfType(ReplicaAcknowledgementException.class).isThrownBy(() -> stock.take("26"))
				.withMessageContaining("'stock:26'")
				.withMessageContaining("acknowledged by 0 of 1 replicas within 100ms")
				.withMessageContaining("distlock.replication.min-replicas-acked");
			assertThat(stock.runs()).isZero();
			StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
			redis.afterPropertiesSet();
			try (RedisLockClient unacknowledged = RedisLockClient.builder(redis).build()) {
				assertThat(unacknowledged.tryLock("stock:26", LockOptions.renewing(Duration.ZERO)))
					.as("the key is free again")
					.isPresent()
					.hasValueSatisfying((handle) -> handle.close());
			}
		});
		servers.awaitReplicaAwake();
	}

	@Configuration(proxyBeanMethods = false)
	static class StockConfig {

		@Bean
		Stock stock() {
			return new Stock();
		}

	}

	public static class Stock {

		private final AtomicInteger runs = new AtomicInteger();

		/** Read through the proxy, which has no counter of its own. */
		public int runs() {
			return this.runs.get();
		}

		@DistributedLock("'stock:' + #sku")
		public void take(String sku) {
			this.runs.incrementAndGet();
		}

	}

}
