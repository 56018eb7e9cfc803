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

package dev.distlock.testing;

import java.time.Duration;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.test.redis.RedisServerProcess;

import static org.awaitility.Awaitility.await;

/**
 * A {@code redis-server} of its own for the tests of one class that break it (stop,
 * restart, {@code CLIENT PAUSE}), so that no other test shares the fault:
 * {@code @RegisterExtension static final OwnRedisServer REDIS = new OwnRedisServer();}
 */
public final class OwnRedisServer implements BeforeAllCallback, AfterAllCallback {

	private RedisServerProcess server;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.server = RedisServerProcess.startOnFreePort();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.server.close();
	}

	/**
	 * Returns the server.
	 * @return the running server
	 */
	public RedisServerProcess server() {
		Assert.state(this.server != null, "Server not started yet: use it from tests or @BeforeEach methods");
		return this.server;
	}

	/**
	 * Starts the server again if a test stopped it.
	 */
	public void ensureRunning() {
		if (!server().isRunning()) {
			server().start();
		}
	}

	/**
	 * Kills the server and starts it again, empty, on the same port; returns once the
	 * template gets answers again.
	 * @param redis a template on the server
	 */
	public void restartEmpty(StringRedisTemplate redis) {
		server().stop();
		server().start();
		awaitAnswers(redis);
	}

	/**
	 * Waits until the server answers through the template.
	 * @param redis a template on the server
	 * @return {@link System#nanoTime()} when it answered
	 */
	public static long awaitAnswers(StringRedisTemplate redis) {
		await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(() -> "PONG".equals(redis.execute((RedisCallback<String>) (connection) -> connection.ping())));
		return System.nanoTime();
	}

	/**
	 * Has the server hold the commands of every client ({@code ALL}) or only writes
	 * ({@code WRITE}) for a while, as a stalled server or a network blackhole would.
	 * @param redis a template on the server
	 * @param millis how long
	 * @param mode {@code ALL} or {@code WRITE}
	 */
	public static void pauseClients(StringRedisTemplate redis, long millis, String mode) {
		redis.execute((RedisCallback<Void>) (connection) -> {
			connection.execute("CLIENT", "PAUSE".getBytes(), Long.toString(millis).getBytes(), mode.getBytes());
			return null;
		});
	}

}
