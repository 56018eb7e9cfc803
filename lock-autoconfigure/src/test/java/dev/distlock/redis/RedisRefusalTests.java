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
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Replies that mean Redis refuses what distlock asks, each on a real server configured to
 * refuse it, are a {@link LockMisconfigurationException} with Redis's reply and what to
 * fix, never "Redis is unavailable"; and a refused release changes nothing in Redis.
 */
class RedisRefusalTests {

	private static final String UNKNOWN_COMMAND_FIX = "Redis does not offer a command distlock needs (a managed Redis "
			+ "that renames or disables commands?): allow the commands that distlock's "
			+ "docs/configuration.md#keys-channels-and-redis-acl lists.";

	@Test
	void commandDisabledOutsideTheScriptsIsAMisconfiguration() {
		try (RedisServerProcess server = RedisServerProcess.startOnFreePort("--rename-command", "EVALSHA", "")) {
			assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(() -> tryLock(server, "sku:1"))
				.withMessageStartingWith(
						"Could not acquire lock 'sku:1': Redis refused the command (ERR unknown " + "command 'EVALSHA'")
				.withMessageEndingWith(UNKNOWN_COMMAND_FIX);
		}
	}

	@Test
	void commandDisabledInsideAScriptIsAMisconfiguration() {
		try (RedisServerProcess server = RedisServerProcess.startOnFreePort("--rename-command", "TIME", "")) {
			assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(() -> tryLock(server, "sku:2"))
				.withMessageStartingWith("Could not acquire lock 'sku:2': Redis refused the command (ERR Unknown "
						+ "Redis command called from script")
				.withMessageEndingWith(UNKNOWN_COMMAND_FIX);
		}
	}

	@Test
	void missingPasswordIsAMisconfiguration() {
		try (RedisServerProcess server = RedisServerProcess.startOnFreePort()) {
			LettuceConnectionFactory admin = TestRedis.connectionFactory(server);
			try {
				TestRedis.template(admin).execute((RedisCallback<Void>) (connection) -> {
					connection.serverCommands().setConfig("requirepass", "secret");
					return null;
				});
				assertThatExceptionOfType(LockMisconfigurationException.class)
					.isThrownBy(() -> tryLock(server, "sku:3"))
					.withMessageStartingWith("Could not acquire lock 'sku:3': Redis refused the command (NOAUTH ")
					.withMessageEndingWith(". Redis requires authentication: set spring.data.redis.username and "
							+ "spring.data.redis.password.");
			}
			finally {
				admin.destroy();
			}
		}
	}

	@Test
	void releaseThatMayNotTellTheWaiterLeavesRedisAsItWas() {
		try (RedisServerProcess server = RedisServerProcess.startOnFreePort()) {
			LettuceConnectionFactory admin = TestRedis.connectionFactory(server);
			StringRedisTemplate redis = TestRedis.template(admin);
			redis.execute((RedisCallback<Void>) (connection) -> {
				connection.execute("ACL", "SETUSER".getBytes(), "mute".getBytes(), "reset".getBytes(), "on".getBytes(),
						">secret".getBytes(), "~*".getBytes(), "resetchannels".getBytes(), "+@all".getBytes());
				return null;
			});
			LockFixture waiterSide = LockFixture.start(server, Duration.ofSeconds(30));
			LettuceConnectionFactory mute = connect(server, "mute");
			RedisLockClient holderSide = RedisLockClient.builder(TestRedis.template(mute)).build();
			try {
				LockHandle held = holderSide.lock("sku:4", LockOptions.renewing(Duration.ZERO));
				Thread waiting = new Thread(
						() -> waiterSide.client.tryLock("sku:4", Duration.ofSeconds(2), Duration.ofSeconds(30)));
				waiting.start();
				await().until(() -> waiterSide.waiter.waiting() == 1);
				List<Object> before = state(redis, "sku:4");
				assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(held::release)
					.withMessage("Could not release lock 'sku:4': Redis refused the command (NOPERM this user has no "
							+ "permissions to publish on the release channel " + waiterSide.client.releaseChannel()
							+ "). The Redis user lacks a permission distlock needs: grant it the keys and channels "
							+ "under distlock.key-prefix and the commands of the lock scripts, as distlock's "
							+ "docs/configuration.md#keys-channels-and-redis-acl shows.");
				assertThat(state(redis, "sku:4")).as("lock, counter, queue and entries").isEqualTo(before);
				assertThat(before.get(0)).as("the holder's token, marked: the waiter queued")
					.isEqualTo(((RedisLockHandle) held).token() + "+queued");
				waiting.interrupt();
			}
			finally {
				holderSide.close();
				waiterSide.close();
				mute.destroy();
				admin.destroy();
			}
		}
	}

	private static void tryLock(RedisServerProcess server, String key) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory(server);
		RedisLockClient client = RedisLockClient.builder(TestRedis.template(factory)).build();
		try {
			client.tryLock(key, LockOptions.renewing(Duration.ZERO)).ifPresent(LockHandle::release);
		}
		finally {
			client.close();
			factory.destroy();
		}
	}

	private static List<Object> state(StringRedisTemplate redis, String key) {
		return List.of(String.valueOf(redis.opsForValue().get(key)),
				String.valueOf(redis.opsForValue().get("distlock:fence")),
				redis.opsForList().range("distlock:queue:" + key, 0, -1),
				redis.opsForHash().entries("distlock:waiters:" + key));
	}

	private static LettuceConnectionFactory connect(RedisServerProcess server, String username) {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(server.host(), server.port());
		configuration.setUsername(username);
		configuration.setPassword("secret");
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
