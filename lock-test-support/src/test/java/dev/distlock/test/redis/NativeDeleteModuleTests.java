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

package dev.distlock.test.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link NativeDeleteModule}: a real {@code redis-server} that loads it runs
 * {@code DELEX} as Redis 8.4 does for the forms it plays, and says so in
 * {@code INFO commandstats}, where a server without it refuses the command.
 */
class NativeDeleteModuleTests {

	private static RedisServerProcess redis;

	@BeforeAll
	static void startServer() {
		redis = RedisServerProcess.startOnFreePort(NativeDeleteModule.loadArguments());
	}

	@AfterAll
	static void stopServer() {
		redis.close();
	}

	@Test
	void ifeqDeletesOnlyAKeyThatHoldsTheValue() {
		call("SET", "ifeq", "owner-1");
		assertThat(call("DELEX", "ifeq", "IFEQ", "owner-2")).isEqualTo(0L);
		assertThat(call("DELEX", "ifeq", "IFEQ", "owner-1+queued")).isEqualTo(0L);
		assertThat(call("GET", "ifeq")).isEqualTo("owner-1");
		assertThat(call("DELEX", "ifeq", "ifeq", "owner-1")).isEqualTo(1L);
		assertThat(call("EXISTS", "ifeq")).isEqualTo(0L);
		assertThat(call("DELEX", "ifeq", "IFEQ", "owner-1")).isEqualTo(0L);
	}

	@Test
	void ifneDeletesOnlyAKeyThatHoldsAnotherValue() {
		call("SET", "ifne", "owner-1");
		assertThat(call("DELEX", "ifne", "IFNE", "owner-1")).isEqualTo(0L);
		assertThat(call("DELEX", "ifne", "IFNE", "owner-2")).isEqualTo(1L);
		assertThat(call("EXISTS", "ifne")).isEqualTo(0L);
	}

	@Test
	void withoutAConditionItDeletesAsDelDoes() {
		call("RPUSH", "plain", "a");
		assertThat(call("DELEX", "plain")).isEqualTo(1L);
		assertThat(call("DELEX", "plain")).isEqualTo(0L);
	}

	@Test
	void aConditionOnAKeyOfAnotherTypeIsAWrongTypeErrorAndDeletesNothing() {
		call("RPUSH", "list", "owner-1");
		assertThatIllegalStateException().isThrownBy(() -> call("DELEX", "list", "IFEQ", "owner-1"))
			.withMessageContaining("WRONGTYPE");
		assertThat(call("EXISTS", "list")).isEqualTo(1L);
	}

	@Test
	void otherFormsAreRefusedAsDistlocksProbeExpects() {
		assertThatIllegalStateException().isThrownBy(() -> call("DELEX", "k", "IFDEQ", "0123"))
			.withMessageContaining("syntax error");
		assertThatIllegalStateException().isThrownBy(() -> call("DELEX", "k", "v"))
			.withMessageContaining("wrong number of arguments");
	}

	@Test
	void commandstatsCountsItAsTheServersOwnCommand() {
		call("SET", "counted", "v");
		call("DELEX", "counted", "IFEQ", "v");
		assertThat(RedisAdminCommands.text(redis, "INFO", "commandstats")).contains("cmdstat_delex:calls=");
	}

	@Test
	void aServerWithoutTheModuleRefusesTheCommand() {
		try (RedisServerProcess plain = RedisServerProcess.startOnFreePort()) {
			assertThatIllegalStateException()
				.isThrownBy(() -> RedisAdminCommands.call(plain, "DELEX", "k", "IFEQ", "v"))
				.withMessageContaining("unknown command");
		}
	}

	private static Object call(String... arguments) {
		return RedisAdminCommands.call(redis, arguments);
	}

}
