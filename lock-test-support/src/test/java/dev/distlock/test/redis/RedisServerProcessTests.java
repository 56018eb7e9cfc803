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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.test.util.TestSocketUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisServerProcess} against the real {@code redis-server} binary.
 */
class RedisServerProcessTests {

	@Test
	void startsOnFreeLoopbackPortAndAnswersPing() {
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			assertThat(redis.host()).isEqualTo("127.0.0.1");
			assertThat(redis.port()).isPositive().isNotEqualTo(6379);
			assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + redis.port());
			assertThat(redis.isStoppable()).isTrue();
			assertThat(redis.isRunning()).isTrue();
			assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
		}
	}

	@Test
	void startsOnGivenPort() {
		int port = TestSocketUtils.findAvailableTcpPort();
		try (RedisServerProcess redis = RedisServerProcess.start(port)) {
			assertThat(redis.port()).isEqualTo(port);
			assertThat(RedisProbe.answersPing("127.0.0.1", port)).isTrue();
		}
	}

	@Test
	void portZeroMeansAnyFreePort() {
		try (RedisServerProcess redis = RedisServerProcess.start(0)) {
			assertThat(redis.port()).isPositive();
			assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
		}
	}

	@Test
	void stopRefusesConnectionsAndStartComesBackOnSamePort() {
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			int port = redis.port();
			redis.stop();
			assertThat(redis.isRunning()).isFalse();
			assertThat(RedisProbe.acceptsConnections(redis.host(), port)).isFalse();
			redis.stop();
			redis.start();
			assertThat(redis.port()).isEqualTo(port);
			assertThat(redis.isRunning()).isTrue();
			assertThat(RedisProbe.answersPing(redis.host(), port)).isTrue();
			redis.start();
			assertThat(RedisProbe.answersPing(redis.host(), port)).isTrue();
		}
	}

	@Test
	void closeIsIdempotentAndFinal() {
		RedisServerProcess redis = RedisServerProcess.startOnFreePort();
		redis.close();
		redis.close();
		assertThat(redis.isRunning()).isFalse();
		assertThat(RedisProbe.acceptsConnections(redis.host(), redis.port())).isFalse();
		assertThatIllegalStateException().isThrownBy(redis::start).withMessageContaining("closed");
	}

	@Test
	void serversGetDifferentPorts() {
		try (RedisServerProcess first = RedisServerProcess.startOnFreePort();
				RedisServerProcess second = RedisServerProcess.startOnFreePort()) {
			assertThat(first.port()).isNotEqualTo(second.port());
			assertThat(RedisProbe.answersPing(first.host(), first.port())).isTrue();
			assertThat(RedisProbe.answersPing(second.host(), second.port())).isTrue();
		}
	}

	@Test
	void refusesPortThatIsAlreadyInUse() throws IOException {
		try (ServerSocket occupant = new ServerSocket()) {
			occupant.bind(new InetSocketAddress("127.0.0.1", 0));
			assertThatIllegalStateException().isThrownBy(() -> RedisServerProcess.start(occupant.getLocalPort()))
				.withMessageContaining("already in use");
		}
	}

	@Test
	@DisabledOnOs(OS.WINDOWS)
	void failureToStartReportsTheProcessOutput(@TempDir Path directory) throws IOException {
		Path binary = directory.resolve("broken-redis-server");
		Files.writeString(binary, "#!/bin/sh\necho \"cannot serve $*\"\nexit 3\n");
		assertThat(binary.toFile().setExecutable(true)).isTrue();
		assertThatIllegalStateException()
			.isThrownBy(() -> RedisServerProcess.start(binary, TestSocketUtils.findAvailableTcpPort()))
			.withMessageContaining("exited before answering PING")
			.withMessageContaining("cannot serve --port")
			.withMessageContaining("--save  --appendonly no --protected-mode no --daemonize no --dir");
	}

}
