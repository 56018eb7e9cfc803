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

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link RedisServerBinary}: the {@code PATH} binary and the one shipped in
 * embedded-redis.
 */
class RedisServerBinaryTests {

	@Test
	void pathBinaryStartsAndAnswersPing() {
		Path binary = RedisServerBinary.onPath("redis-server").orElse(null);
		assumeTrue(binary != null, "no redis-server on PATH");
		assertThat(RedisServerBinary.resolve()).isEqualTo(binary);
		try (RedisServerProcess redis = RedisServerProcess.start(binary)) {
			assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
		}
	}

	@Test
	void embeddedBinaryIsExtractedOnceAndReused() {
		Path binary = RedisServerBinary.embedded();
		assertThat(binary).isExecutable();
		assertThat(RedisServerBinary.embedded()).isEqualTo(binary);
	}

	@Test
	void embeddedBinaryStartsStopsAndAnswersPing() {
		try (RedisServerProcess redis = RedisServerProcess.start(RedisServerBinary.embedded())) {
			assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
			redis.stop();
			assertThat(RedisProbe.acceptsConnections(redis.host(), redis.port())).isFalse();
			redis.start();
			assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
		}
	}

	@ParameterizedTest
	@CsvSource({ "Linux, amd64, redis-server-6.2.6-v5-linux-amd64", "Linux, x86_64, redis-server-6.2.6-v5-linux-amd64",
			"Linux, aarch64, redis-server-6.2.7-linux-arm64", "Linux, i386, redis-server-6.2.7-linux-386",
			"Mac OS X, aarch64, redis-server-6.2.6-v5-darwin-arm64",
			"Mac OS X, x86_64, redis-server-6.2.6-v5-darwin-amd64",
			"Windows 11, amd64, redis-server-5.0.14.1-windows-amd64.exe" })
	void embeddedResourceMatchesPlatform(String osName, String osArch, String resource) {
		assertThat(RedisServerBinary.embeddedResourceName(osName, osArch)).isEqualTo(resource);
		assertThat(getClass().getClassLoader().getResource(resource)).isNotNull();
	}

	@Test
	void unsupportedPlatformSaysToInstallRedis() {
		assertThatIllegalStateException().isThrownBy(() -> RedisServerBinary.embeddedResourceName("Linux", "riscv64"))
			.withMessageContaining("Linux/riscv64")
			.withMessageContaining("install redis-server on the PATH");
	}

	@Test
	void resolvedBinaryExists() {
		assertThat(Files.isExecutable(RedisServerBinary.resolve())).isTrue();
	}

}
