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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The probe for a native conditional delete when the connection factory is stopped under
 * it, as when the application context closes while the probe, started in the background
 * when the client starts, is still running: the probe ends quietly, leaves the choice
 * open, and probes again once the factory is back. Before, the factory's
 * {@code IllegalStateException} killed the probe's thread with an uncaught exception at
 * every such close.
 */
class ConditionalDeleteProbeTests {

	private final LettuceConnectionFactory factory = TestRedis.connectionFactory(RedisTestServers.shared());

	private final ConditionalDelete conditionalDelete = new ConditionalDelete(TestRedis.template(this.factory),
			new LockScriptExecutor(TestRedis.template(this.factory)));

	@AfterEach
	void destroyFactory() {
		this.factory.destroy();
	}

	@Test
	void probeOnAStoppedConnectionFactoryEndsQuietlyAndLeavesTheChoiceOpen() {
		this.factory.stop();
		String probeKey = TestRedis.uniqueKey("probe");
		assertThatNoException().isThrownBy(() -> this.conditionalDelete.probe(probeKey));
		assertThat(this.conditionalDelete.isProbed()).as("answered").isFalse();
	}

	@Test
	void probeThatEndedOnAStoppedConnectionFactoryIsRunAgainOnceTheFactoryIsBack() {
		this.factory.stop();
		String probeKey = TestRedis.uniqueKey("probe");
		this.conditionalDelete.probe(probeKey);
		this.factory.start();
		this.conditionalDelete.probe(probeKey);
		// Redis 7 has neither command: the answer is that there is none, and releases
		// run delete-if-equal.lua.
		assertThat(this.conditionalDelete.command(probeKey)).isNull();
		assertThat(this.conditionalDelete.isProbed()).as("answered").isTrue();
	}

}
