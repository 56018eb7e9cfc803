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

package dev.distlock.redis.protocol;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

import dev.distlock.LockMisconfigurationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wording of Redis's error replies that mean misconfiguration, as servers this build
 * does not run send them (Redis 7.2 and later, Valkey): the tests against a real Redis
 * 7.0 cover the replies it sends.
 */
class RedisErrorsTests {

	@ParameterizedTest
	@ValueSource(strings = {
			"ERR The user executing the script can't publish to the channel mentioned in the command script: 1f2e, "
					+ "on @user_script:60.",
			"ERR ACL failure in script: User app has no permissions to run the 'lindex' command script: 1f2e, on "
					+ "@user_script:40.",
			"ERR ACL failure in script: No permissions to access a channel script: 1f2e, on @user_script:60.",
			"NOPERM User app has no permissions to run the 'evalsha' command" })
	void permissionRepliesOfEveryServerAreAMissingPermission(String reply) {
		LockMisconfigurationException misconfigured = RedisErrors.misconfiguration("sku:1", "acquire",
				new RedisSystemException("Error in execution", new IllegalStateException(reply)));
		assertThat(misconfigured).isNotNull();
		assertThat(misconfigured.getMessage()).isEqualTo("Could not acquire lock 'sku:1': Redis refused the command ("
				+ reply + "). The Redis user lacks a permission distlock needs: grant it the keys and channels under "
				+ "distlock.key-prefix and the commands of the lock scripts, as distlock's "
				+ "docs/configuration.md#keys-channels-and-redis-acl shows.");
	}

	@ParameterizedTest
	@ValueSource(strings = { "ERR unknown command 'EVALSHA', with args beginning with: ",
			"ERR Unknown Redis command called from script script: 1f2e, on @user_script:33.",
			"ERR unknown command `EVALSHA`, with args beginning with: " })
	void unknownCommandsInAndOutsideScriptsAreMisconfiguration(String reply) {
		assertThat(RedisErrors.fix(new InvalidDataAccessApiUsageException(reply)))
			.startsWith("Redis does not offer a command distlock needs");
	}

	@ParameterizedTest
	@ValueSource(strings = { "Unable to connect to 127.0.0.1:6390", "Connection closed prematurely",
			"Command timed out after 2 second(s)", "LOADING Redis is loading the dataset in memory" })
	void outagesAreNotMisconfiguration(String message) {
		assertThat(RedisErrors.fix(new RedisConnectionFailureException(message))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "NOAUTH Authentication required.",
			"NOAUTH HELLO must be called with the client already authenticated",
			"WRONGPASS invalid username-password pair or user is disabled." })
	void credentialRepliesNameTheCredentialProperties(String reply) {
		assertThat(RedisErrors.fix(new RedisSystemException("wrapped: " + reply, null)))
			.contains("spring.data.redis.username and spring.data.redis.password");
	}

}
