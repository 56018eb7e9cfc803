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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The health indicator answers within its own time bound while Redis does not answer
 * (paused with {@code CLIENT PAUSE}), however long the command timeout: {@code DOWN},
 * saying Redis did not answer in time, and {@code DOWN} at once, without a second check,
 * while the first still runs. Control: the same checks without the bound block for as
 * long as Redis is paused.
 */
class DistributedLockHealthIndicatorTimeoutTests {

	private static final Duration BOUND = Duration.ofMillis(500);

	private static final long PAUSE_MILLIS = 3000;

	private RedisTestServer server;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void start() {
		this.server = RedisTestServers.startDedicated();
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration(this.server.host(),
				this.server.port());
		// A command timeout far longer than the bound, as with Lettuce's default of 60 s.
		this.connectionFactory = new LettuceConnectionFactory(standalone,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(30)).build());
		this.connectionFactory.start();
		this.client = RedisLockClient.builder(TestRedis.template(this.connectionFactory)).build();
	}

	@AfterEach
	void stop() {
		this.client.close();
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void downWithinTheBoundWhileRedisDoesNotAnswer() {
		DistributedLockHealthIndicator indicator = new DistributedLockHealthIndicator(this.client.monitor(), BOUND);
		assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
		RedisAdminCommands.call(this.server, "CLIENT", "PAUSE", Long.toString(PAUSE_MILLIS), "ALL");
		long start = System.nanoTime();
		Health down = indicator.health();
		long took = System.nanoTime() - start;
		assertThat(down.getStatus()).isEqualTo(Status.DOWN);
		assertThat(down.getDetails().get("error").toString())
			.isEqualTo("Redis did not answer the health check within 500ms (distlock.health.timeout)");
		assertThat(Duration.ofNanos(took)).as("answered within about the bound")
			.isGreaterThanOrEqualTo(BOUND)
			.isLessThan(BOUND.plusSeconds(1));
		long again = System.nanoTime();
		Health stillRunning = indicator.health();
		assertThat(Duration.ofNanos(System.nanoTime() - again)).as("answered at once, no second check")
			.isLessThan(BOUND);
		assertThat(stillRunning.getStatus()).isEqualTo(Status.DOWN);
		assertThat(stillRunning.getDetails().get("error").toString())
			.startsWith("Redis has not yet answered the previous health check");
		await().atMost(Duration.ofSeconds(20)).until(() -> indicator.health().getStatus() == Status.UP);
	}

	@Test
	void controlTheChecksWithoutTheBoundBlockAsLongAsRedisIsPaused() {
		this.client.monitor().checkLocking();
		RedisAdminCommands.call(this.server, "CLIENT", "PAUSE", Long.toString(PAUSE_MILLIS), "ALL");
		long start = System.nanoTime();
		this.client.monitor().checkLocking();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(BOUND.plusSeconds(1));
	}

}
