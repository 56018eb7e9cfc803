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
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockFailureAction;
import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Errors that mean misconfiguration (a missing permission, wrong credentials) are
 * reported as such, with what to fix, never as "Redis is unavailable":
 * {@code onUnavailable} does not apply to them, and health is {@code DOWN} with the
 * reason.
 */
class MisconfigurationTests {

	/**
	 * The rule docs/configuration.md gives for an application whose distlock.key-prefix
	 * is "app:".
	 */
	static final String DOCUMENTED_RULE = "SETUSER app reset on >secret ~app:* &app:* +evalsha +eval "
			+ "+script|load +script|exists +subscribe +unsubscribe +ping +get +set +del +exists +type +pexpire +pttl "
			+ "+time +hget +hset +hdel +rpush +lindex +lpop +lrem +publish +lrange +zadd +zrange +zscore +zrem "
			+ "+zremrangebyscore";

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private LettuceConnectionFactory admin;

	private LettuceConnectionFactory limited;

	@BeforeEach
	void createLimitedUser() {
		this.admin = TestRedis.connectionFactory(REDIS.server());
		// Keys app:* only: distlock's own keys outside that pattern are refused (NOPERM).
		TestRedis.template(this.admin).execute((RedisCallback<Void>) (connection) -> {
			connection.execute("ACL", "SETUSER".getBytes(), "limited".getBytes(), "reset".getBytes(), "on".getBytes(),
					">secret".getBytes(), "~app:*".getBytes(), "&*".getBytes(), "+@all".getBytes());
			return null;
		});
	}

	@AfterEach
	void close() {
		if (this.limited != null) {
			this.limited.destroy();
		}
		this.admin.destroy();
	}

	@Test
	void missingPermissionIsAMisconfigurationWithWhatToFix() {
		RedisLockClient client = RedisLockClient.builder(connect("limited", "secret")).build();
		try {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> client.tryLock("app:sku:1", LockOptions.renewing(Duration.ZERO)))
				.withMessageStartingWith("Could not acquire lock 'app:sku:1': Redis refused the command (")
				.withMessageContaining("NOPERM")
				.withMessageContaining("The Redis user lacks a permission distlock needs");
			Health health = new DistributedLockHealthIndicator(client.monitor()).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails().get("misconfiguration")).asString()
				.startsWith("The Redis user lacks a permission distlock needs");
		}
		finally {
			client.close();
		}
	}

	@Test
	void userWithTheDocumentedAclRuleCanLockWaitAndBeHandedTheLock() throws Exception {
		TestRedis.template(this.admin).execute((RedisCallback<Void>) (connection) -> {
			connection.execute("ACL",
					Arrays.stream(DOCUMENTED_RULE.split(" ")).map(String::getBytes).toArray(byte[][]::new));
			return null;
		});
		StringRedisTemplate redis = connect("app", "secret");
		RedisLockClient holderSide = RedisLockClient.builder(redis).keyPrefix("app:").build();
		RedisLockClient waiterSide = RedisLockClient.builder(redis).keyPrefix("app:").releaseMessages(true).build();
		ReleaseMessageWaiter waiter = waiterSide.releaseWaiter();
		try {
			waiterSide.start();
			await().atMost(Duration.ofSeconds(10))
				.until(waiterSide.monitor().releaseSubscription().get()::isSubscribed);
			LockHandle held = holderSide.lock("sku:1", LockOptions.renewing(Duration.ZERO));
			CompletableFuture<LockHandle> next = CompletableFuture
				.supplyAsync(() -> waiterSide.lock("sku:1", LockOptions.renewing(Duration.ofSeconds(10))));
			await().until(() -> waiter.waiting() == 1);
			assertThat(TestRedis.template(this.admin).keys("*")).as("every key under the prefix")
				.containsExactlyInAnyOrder("app:sku:1", "app:distlock:fence", "app:distlock:queue:sku:1",
						"app:distlock:waiters:sku:1");
			held.release();
			next.get(10, TimeUnit.SECONDS).release();
			assertThat(waiter.handOvers()).as("handed over by message").isEqualTo(1);
			LockHandle reader = holderSide.lock("catalogue",
					LockOptions.renewing(Duration.ZERO).withMode(LockMode.READ));
			CompletableFuture<LockHandle> writer = CompletableFuture.supplyAsync(() -> waiterSide.lock("catalogue",
					LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.WRITE)));
			await().until(() -> waiter.waiting() == 1);
			assertThat(holderSide.monitor().keyState("app:catalogue")).as("the key inspection of a read-write lock")
				.satisfies((state) -> assertThat(state.holders()).hasSize(1))
				.satisfies((state) -> assertThat(state.waiters()).isEqualTo(1));
			reader.release();
			writer.get(10, TimeUnit.SECONDS).release();
			assertThat(waiter.handOvers()).as("the writer handed over by message").isEqualTo(2);
			assertThat(holderSide.monitor().checkScripts()).containsOnlyKeys("acquire", "release", "delete-if-equal",
					"renew", "fence", "inspect", "shared-acquire", "shared-release", "multi-acquire");
			Health health = new DistributedLockHealthIndicator(waiterSide.monitor()).health();
			assertThat(health.getStatus()).as(health::toString).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("locking", "ok");
		}
		finally {
			holderSide.close();
			waiterSide.close();
		}
	}

	@Test
	void keyInspectionRefusedByTheUserIsAMisconfigurationWithWhatToFix() {
		TestRedis.template(this.admin).execute((RedisCallback<Void>) (connection) -> {
			connection.execute("ACL",
					Arrays.stream(DOCUMENTED_RULE.replace(" +zrange ", " ").split(" "))
						.map(String::getBytes)
						.toArray(byte[][]::new));
			return null;
		});
		RedisLockClient owner = RedisLockClient.builder(TestRedis.template(this.admin)).keyPrefix("app:").build();
		RedisLockClient inspector = RedisLockClient.builder(connect("app", "secret")).keyPrefix("app:").build();
		try (LockHandle reader = owner.lock("catalogue", LockOptions.renewing(Duration.ZERO).withMode(LockMode.READ))) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> inspector.monitor().keyState("app:catalogue"))
				.withMessageStartingWith("Could not inspect lock 'app:catalogue': Redis refused the command (")
				.withMessageContaining("The Redis user lacks a permission distlock needs");
		}
		finally {
			owner.close();
			inspector.close();
		}
	}

	@Test
	void healthIsDownBeforeAnyLockWhenTheUserMayNotWriteDistlocksOwnKeys() {
		// Lock keys app:lock:* only: every acquire would be refused on the fencing
		// counter.
		TestRedis.template(this.admin).execute((RedisCallback<Void>) (connection) -> {
			connection.execute("ACL", "SETUSER".getBytes(), "locksonly".getBytes(), "reset".getBytes(), "on".getBytes(),
					">secret".getBytes(), "~app:lock:*".getBytes(), "&*".getBytes(), "+@all".getBytes());
			return null;
		});
		RedisLockClient client = RedisLockClient.builder(connect("locksonly", "secret")).keyPrefix("app:").build();
		try {
			Health health = new DistributedLockHealthIndicator(client.monitor()).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails().get("misconfiguration")).asString()
				.startsWith("The Redis user lacks a permission distlock needs");
			assertThat(health.getDetails()).doesNotContainKey("locking");
		}
		finally {
			client.close();
		}
	}

	@Test
	void healthIsDownWhenTheUserMayNotPublishOnTheReleaseChannel() {
		TestRedis.template(this.admin).execute((RedisCallback<Void>) (connection) -> {
			connection.execute("ACL", "SETUSER".getBytes(), "nochannels".getBytes(), "reset".getBytes(),
					"on".getBytes(), ">secret".getBytes(), "~app:*".getBytes(), "resetchannels".getBytes(),
					"+@all".getBytes());
			return null;
		});
		RedisLockClient client = RedisLockClient.builder(connect("nochannels", "secret")).keyPrefix("app:").build();
		try {
			client.lock("sku:3", LockOptions.renewing(Duration.ZERO)).release();
			Health health = new DistributedLockHealthIndicator(client.monitor()).health();
			assertThat(health.getStatus()).as(health::toString).isEqualTo(Status.DOWN);
			assertThat(health.getDetails().get("misconfiguration")).as(health::toString)
				.asString()
				.startsWith("The Redis user lacks a permission distlock needs");
		}
		finally {
			client.close();
		}
	}

	@Test
	void wrongPasswordIsAMisconfigurationWithWhatToFix() {
		RedisLockClient client = RedisLockClient.builder(connect("limited", "wrong")).build();
		try {
			Throwable failure = catchThrowable(() -> client.tryLock("app:sku:2", LockOptions.renewing(Duration.ZERO)));
			// Lettuce's handshake closes the channel before it fails the connection with
			// Redis's reply, and under load the close can win: "Connection closed
			// prematurely", with no reply to read. Only that race is tried again.
			for (int retry = 0; retry < 3 && chain(failure).contains("Connection closed prematurely"); retry++) {
				failure = catchThrowable(() -> client.tryLock("app:sku:2", LockOptions.renewing(Duration.ZERO)));
			}
			Throwable last = failure;
			assertThat(failure).as(() -> "the failure and its causes: " + chain(last))
				.isInstanceOf(LockMisconfigurationException.class);
			assertThat(failure).hasMessageContaining("WRONGPASS")
				.hasMessageContaining("check spring.data.redis.username and spring.data.redis.password");
		}
		finally {
			client.close();
		}
	}

	@Test
	void skipOnUnavailableDoesNotHideAMisconfiguration() {
		LockTestContexts.withRedis(REDIS.server())
			.withPropertyValues("spring.data.redis.url=redis://limited:secret@" + REDIS.server().host() + ":"
					+ REDIS.server().port())
			.withBean(SkippingService.class)
			.run((context) -> assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> context.getBean(SkippingService.class).work("1"))
				.withMessageContaining("NOPERM"));
	}

	private static String chain(Throwable failure) {
		StringBuilder chain = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			chain.append(" <- ").append(cause);
			for (Throwable suppressed : cause.getSuppressed()) {
				chain.append(" [suppressed ").append(suppressed).append(']');
			}
		}
		return chain.toString();
	}

	private StringRedisTemplate connect(String username, String password) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(REDIS.server().host(),
				REDIS.server().port());
		server.setUsername(username);
		server.setPassword(password);
		this.limited = new LettuceConnectionFactory(server,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		this.limited.afterPropertiesSet();
		this.limited.start();
		return TestRedis.template(this.limited);
	}

	static class SkippingService {

		@DistributedLock(key = "'app:sku:' + #id", waitTime = "0", onUnavailable = LockFailureAction.SKIP)
		public String work(String id) {
			return "ran";
		}

	}

}
