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

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.test.util.TestSocketUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisTestServers}.
 */
class RedisTestServersTests {

	@Test
	void sharedIsOneServerThatSurvivesClose() {
		RedisTestServer shared = RedisTestServers.shared();
		assertThat(RedisTestServers.shared()).isSameAs(shared);
		shared.close();
		assertThat(RedisProbe.answersPing(shared.host(), shared.port())).isTrue();
	}

	@Test
	void dedicatedServersAreStoppableAndDistinct() {
		try (RedisTestServer first = RedisTestServers.startDedicated();
				RedisTestServer second = RedisTestServers.startDedicated()) {
			assertThat(first.isStoppable()).isTrue();
			assertThat(first.port()).isNotEqualTo(second.port()).isNotEqualTo(RedisTestServers.shared().port());
			first.stop();
			assertThat(RedisProbe.acceptsConnections(first.host(), first.port())).isFalse();
			assertThat(RedisProbe.answersPing(second.host(), second.port())).isTrue();
			first.start();
			assertThat(RedisProbe.answersPing(first.host(), first.port())).isTrue();
		}
	}

	@Test
	void sharedUsesExternalServerFromUrl() {
		try (RedisServerProcess external = RedisServerProcess.startOnFreePort()) {
			RedisTestServer server = RedisTestServers.startShared(external.url());
			assertThat(server.host()).isEqualTo(external.host());
			assertThat(server.port()).isEqualTo(external.port());
			assertThat(server.isStoppable()).isFalse();
			assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(server::stop);
			server.close();
			assertThat(RedisProbe.answersPing(external.host(), external.port())).isTrue();
		}
	}

	@Test
	void sharedWithoutUrlStartsOwnServer() {
		try (RedisTestServer server = RedisTestServers.startShared("  ")) {
			assertThat(server.isStoppable()).isTrue();
			assertThat(RedisProbe.answersPing(server.host(), server.port())).isTrue();
		}
	}

	@Test
	void invalidUrlNamesTheVariable() {
		assertThatIllegalStateException().isThrownBy(() -> RedisTestServers.startShared("localhost:6379"))
			.withMessageStartingWith("DISTLOCK_TEST_REDIS_URL is invalid")
			.withMessageContaining("expected redis://host:port")
			.withMessageContaining("or unset DISTLOCK_TEST_REDIS_URL");
	}

	@Test
	void unreachableUrlSaysWhatToDo() {
		String url = "redis://127.0.0.1:" + TestSocketUtils.findAvailableTcpPort();
		assertThatIllegalStateException().isThrownBy(() -> RedisTestServers.startShared(url))
			.withMessageStartingWith("DISTLOCK_TEST_REDIS_URL=" + url + " does not answer PING")
			.withMessageContaining("start that server, or unset DISTLOCK_TEST_REDIS_URL");
	}

	@Test
	void noServerMessageSaysHowToProvideOne() {
		IllegalStateException failure = new IllegalStateException("redis-server exploded");
		assertThat(RedisTestServers.noServer(List.of(failure)))
			.hasMessageContaining("set DISTLOCK_TEST_REDIS_URL=redis://host:port")
			.hasMessageContaining("start Docker")
			.hasMessageContaining("install redis-server on the PATH")
			.hasMessageContaining("redis-server exploded")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).containsExactly(failure));
	}

}
