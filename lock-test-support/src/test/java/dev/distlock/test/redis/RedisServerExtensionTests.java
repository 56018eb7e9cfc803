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

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisServerExtension}: the shared server is injected into
 * constructors, lifecycle methods and test methods.
 */
@ExtendWith(RedisServerExtension.class)
class RedisServerExtensionTests {

	private final RedisTestServer fromConstructor;

	private RedisTestServer fromBeforeEach;

	RedisServerExtensionTests(RedisTestServer redis) {
		this.fromConstructor = redis;
	}

	@BeforeEach
	void setUp(RedisTestServer redis) {
		this.fromBeforeEach = redis;
	}

	@Test
	void injectsTheSharedServerEverywhere(RedisTestServer redis) {
		assertThat(redis).isSameAs(RedisTestServers.shared())
			.isSameAs(this.fromConstructor)
			.isSameAs(this.fromBeforeEach);
		assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
	}

}
