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

package dev.distlock.autoconfigure;

import java.time.Duration;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.junit.jupiter.api.Test;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;

import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LettuceReconnectConfiguration}: after a long outage, Lettuce tries to
 * reconnect at least every {@code distlock.max-reconnect-delay}, not every 30 seconds.
 */
class LettuceReconnectConfigurationTests {

	@Test
	void reconnectDelayIsCappedByDefault() {
		LockTestContexts.withSharedRedis().run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delay.createDelay(1)).isLessThan(Duration.ofMillis(100));
			assertThat(delay.createDelay(30)).as("after many failed attempts").isEqualTo(Duration.ofSeconds(1));
		});
	}

	@Test
	void capFollowsTheProperty() {
		LockTestContexts.withSharedRedis().withPropertyValues("distlock.max-reconnect-delay=250ms").run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delay.createDelay(30)).isEqualTo(Duration.ofMillis(250));
		});
	}

	@Test
	void capAtOrBelowTheFirstDelayIsAConstantDelay() {
		LockTestContexts.withSharedRedis().withPropertyValues("distlock.max-reconnect-delay=5ms").run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delay.createDelay(1)).isEqualTo(Duration.ofMillis(5));
			assertThat(delay.createDelay(30)).isEqualTo(Duration.ofMillis(5));
		});
	}

	@Test
	void zeroKeepsLettucesOwnBackoff() {
		LockTestContexts.withSharedRedis().withPropertyValues("distlock.max-reconnect-delay=0").run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delay.createDelay(30)).isEqualTo(Duration.ofSeconds(30));
		});
	}

	@Test
	void backsOffWithoutSpringBootsLettuceSupport() {
		LockTestContexts.withSharedRedis()
			.withClassLoader(new FilteredClassLoader(ClientResourcesBuilderCustomizer.class))
			.run((context) -> assertThat(context).doesNotHaveBean("distributedLockReconnectDelay"));
	}

}
