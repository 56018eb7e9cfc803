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

package dev.distlock.sample.redis;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Where the embedded Redis is not on the class path, as in the application jar: fails the
 * startup with {@link EmbeddedRedisUnavailableException} if no Redis is configured
 * either, rather than let Spring Boot fall back to {@code localhost:6379}.
 * <p>
 * It reads the properties when the context starts, not through a condition: the
 * ahead-of-time processed application decides its conditions once, at build time, and the
 * jar is started both with and without a Redis configured. It fails before the context
 * starts anything that connects to Redis.
 */
@Component
@ConditionalOnMissingClass(EmbeddedRedisAvailability.SERVER_CLASS)
class RedisConfiguredCheck implements InitializingBean {

	private final Environment environment;

	RedisConfiguredCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterPropertiesSet() {
		if (NoRedisConfiguredCondition.redisSetting(this.environment) == null) {
			throw EmbeddedRedisUnavailableException.noRedisConfigured();
		}
	}

}
