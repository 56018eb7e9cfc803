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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockKind;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.redis.monitor.LockHolderInfo;
import dev.distlock.redis.monitor.LockKeyState;
import dev.distlock.redis.protocol.KeyInspection;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review probes of the inspection of shared keys (inspect.lua) that the actuator endpoint
 * shows.
 */
class SharedKeyInspectionTests {

	/**
	 * The rule docs/configuration.md gives for distlock.key-prefix=app:.
	 */
	private static final String DOCUMENTED_RULE = MisconfigurationTests.DOCUMENTED_RULE;

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private LettuceConnectionFactory admin;

	private LettuceConnectionFactory limited;

	@BeforeEach
	void connectAdmin() {
		this.admin = TestRedis.connectionFactory(REDIS.server());
	}

	@AfterEach
	void close() {
		if (this.limited != null) {
			this.limited.destroy();
		}
		this.admin.destroy();
	}

	/**
	 * inspect.lua reads a shared key with ZRANGEBYSCORE and its waiters with HGETALL,
	 * which the documented ACL rule does not grant: under exactly that rule, the key
	 * inspection of a read-write lock fails, and KeyStateReader reports the NOPERM as
	 * LockUnavailableException ("Redis cannot be reached") instead of a misconfiguration.
	 */
	@Test
	void keyStateOfAReadWriteLockWorksUnderTheDocumentedAclRule() {
		TestRedis.template(this.admin).execute((RedisCallback<Void>) (connection) -> {
			connection.execute("ACL",
					Arrays.stream(DOCUMENTED_RULE.split(" ")).map(String::getBytes).toArray(byte[][]::new));
			return null;
		});
		RedisLockClient client = RedisLockClient.builder(connect("app", "secret")).keyPrefix("app:").build();
		try (LockHandle reader = client.lock("catalogue",
				LockOptions.renewing(Duration.ZERO).withMode(LockMode.READ))) {
			LockKeyState state = client.monitor().keyState("app:catalogue");
			assertThat(state.kind()).isEqualTo(LockKind.READ_WRITE);
			assertThat(state.holders()).hasSize(1);
		}
		finally {
			client.close();
		}
	}

	/**
	 * A semaphore released with a minimum hold keeps its permit as a member
	 * 'released:s3.…', which inspect.lua neither recognises as a permit nor counts for
	 * the permits: the key is reported as a read-write lock with a holder of unknown
	 * kind.
	 */
	@Test
	void semaphoreKeptForItsMinimumHoldIsStillReportedAsASemaphore() {
		StringRedisTemplate redis = TestRedis.template(this.admin);
		RedisLockClient client = RedisLockClient.builder(redis).build();
		try {
			String key = TestRedis.uniqueKey("probe-kept");
			LockHandle permit = client.lock(key,
					LockOptions.renewing(Duration.ZERO).withPermits(3).withMinHoldTime(Duration.ofSeconds(30)));
			permit.release();
			LockKeyState state = client.monitor().keyState(key);
			assertThat(state.kind()).isEqualTo(LockKind.SEMAPHORE);
			assertThat(state.permits()).isEqualTo(3);
			assertThat(state.holders()).extracting(LockHolderInfo::kind).containsExactly(KeyInspection.Holder.PERMIT);
		}
		finally {
			client.close();
		}
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

}
