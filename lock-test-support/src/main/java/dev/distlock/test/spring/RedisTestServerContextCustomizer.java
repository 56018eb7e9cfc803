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

package dev.distlock.test.spring;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

/**
 * Registers a {@link DataRedisConnectionDetails} bean for the shared test server before
 * the context is refreshed, so that Spring Boot's Redis auto-configuration, which backs
 * off its own property-based details when there is one, connects to it.
 * <p>
 * A record without components: all instances are equal, so that every test class
 * annotated with {@link WithRedisTestServer} and otherwise configured alike shares one
 * cached application context.
 */
record RedisTestServerContextCustomizer() implements ContextCustomizer {

	/** Name of the registered bean. */
	static final String BEAN_NAME = "redisTestServerConnectionDetails";

	/**
	 * Starts the shared server if it is not running yet and registers its connection
	 * details.
	 * @param context the context, not refreshed yet
	 * @param mergedConfig the merged configuration of the test (unused)
	 * @throws IllegalStateException if no server can be provided, saying how to provide
	 * one, or if the context cannot take bean definitions
	 */
	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
			throw new IllegalStateException("@WithRedisTestServer cannot register connection details in " + context
					+ ": its bean factory is not a BeanDefinitionRegistry");
		}
		RedisTestServer server = sharedServer();
		RedisTestServerConnectionDetails details = new RedisTestServerConnectionDetails(server.host(), server.port());
		registry.registerBeanDefinition(BEAN_NAME,
				new RootBeanDefinition(DataRedisConnectionDetails.class, () -> details));
	}

	private static RedisTestServer sharedServer() {
		try {
			return RedisTestServers.shared();
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException("@WithRedisTestServer: " + ex.getMessage(), ex);
		}
	}

}
