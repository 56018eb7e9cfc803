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

package dev.distlock.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.test.redis.RedisTestServers;

/**
 * A connection to the shared test Redis for the tests of one class, opened before they
 * run and closed after:
 * {@code @RegisterExtension static final SharedRedisConnection REDIS = new SharedRedisConnection();}
 */
public final class SharedRedisConnection implements BeforeAllCallback, AfterAllCallback {

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate template;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.connectionFactory = TestRedis.connectionFactory(RedisTestServers.shared());
		this.template = TestRedis.template(this.connectionFactory);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.connectionFactory.destroy();
	}

	/**
	 * Returns the template on the connection.
	 * @return the template
	 */
	public StringRedisTemplate template() {
		Assert.state(this.template != null, "Connection not open yet: use it from tests or @BeforeAll methods");
		return this.template;
	}

}
