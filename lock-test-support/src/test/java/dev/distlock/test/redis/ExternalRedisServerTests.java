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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ExternalRedisServer}, mainly parsing of
 * {@code DISTLOCK_TEST_REDIS_URL}.
 */
class ExternalRedisServerTests {

	@Test
	void parsesHostAndPort() {
		ExternalRedisServer server = ExternalRedisServer.fromUrl("redis://redis.example.com:6380");
		assertThat(server.host()).isEqualTo("redis.example.com");
		assertThat(server.port()).isEqualTo(6380);
		assertThat(server.url()).isEqualTo("redis://redis.example.com:6380");
	}

	@Test
	void defaultsToPort6379() {
		assertThat(ExternalRedisServer.fromUrl("redis://10.0.0.7"))
			.isEqualTo(new ExternalRedisServer("10.0.0.7", 6379));
	}

	@Test
	void acceptsSurroundingWhitespaceTrailingSlashAndUpperCaseScheme() {
		assertThat(ExternalRedisServer.fromUrl("  REDIS://127.0.0.1:7000/ \n"))
			.isEqualTo(new ExternalRedisServer("127.0.0.1", 7000));
	}

	@Test
	void keepsIpv6LiteralUsableInUrl() {
		ExternalRedisServer server = ExternalRedisServer.fromUrl("redis://[::1]:6390");
		assertThat(server.port()).isEqualTo(6390);
		assertThat(server.url()).isEqualTo("redis://[::1]:6390");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "localhost:6379", "http://localhost:6379", "rediss://localhost:6379",
			"redis://user:secret@localhost:6379", "redis://localhost:6379/2", "redis://localhost:6379?timeout=1",
			"redis://:6379", "redis://local host:6379" })
	void rejectsUnsupportedUrls(String url) {
		assertThatIllegalArgumentException().isThrownBy(() -> ExternalRedisServer.fromUrl(url))
			.withMessageContaining("expected redis://host:port");
	}

	@Test
	void isNotStoppableAndCloseDoesNothing() {
		ExternalRedisServer server = new ExternalRedisServer("localhost", 6379);
		assertThat(server.isStoppable()).isFalse();
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(server::stop)
			.withMessageContaining("startDedicated()");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(server::start);
		server.close();
	}

}
