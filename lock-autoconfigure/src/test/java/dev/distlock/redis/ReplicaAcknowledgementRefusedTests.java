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
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.testing.MasterWithReplica;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A user that may lock but not {@code WAIT} gets, with replica acknowledgement on, a
 * misconfiguration naming the refused command; the grant that the script had already made
 * is released in the background, so the key does not stay locked for the whole lease.
 */
class ReplicaAcknowledgementRefusedTests {

	private static MasterWithReplica servers;

	@BeforeAll
	static void startServers() {
		servers = new MasterWithReplica();
		RedisAdminCommands.call(servers.master, "ACL", "SETUSER", "nowait", "on", ">secret", "~*", "&*", "+@all",
				"-wait");
	}

	@AfterAll
	static void stopServers() throws IOException {
		servers.close();
	}

	@Test
	void grantWhoseWaitIsRefusedIsReleasedAndReportedAsMisconfiguration() {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(servers.master.host(),
				servers.master.port());
		configuration.setUsername("nowait");
		configuration.setPassword("secret");
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.afterPropertiesSet();
		factory.start();
		RedisLockClient client = RedisLockClient.builder(TestRedis.template(factory))
			.replicaAcknowledgement(1, Duration.ofMillis(100))
			.build();
		String key = TestRedis.uniqueKey("refused-wait");
		try {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> client.tryLock(key, LockOptions.renewing(Duration.ZERO)))
				.withMessageContaining("NOPERM")
				.withMessageContaining("wait");
			// The lease is 30 s: the key is gone long before that, released by its owner.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> RedisAdminCommands.call(servers.master, "EXISTS", key).equals(0L));
		}
		finally {
			client.close();
			factory.destroy();
		}
	}

}
