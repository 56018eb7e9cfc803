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

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit Jupiter extension that injects the {@linkplain RedisTestServers#shared() shared}
 * {@link RedisTestServer} into test methods, constructors and lifecycle methods:
 *
 * <pre class="code">
 * &#064;ExtendWith(RedisServerExtension.class)
 * class LockTests {
 *
 *     &#064;Test
 *     void locks(RedisTestServer redis) {
 *         // connect to redis.url()
 *     }
 *
 * }
 * </pre>
 *
 * If no server can be provided, resolving the parameter fails (the test errors rather
 * than being skipped) with a message saying how to provide one. For a Spring Boot test,
 * {@code @WithRedisTestServer} (in {@code dev.distlock.test.spring}) connects the
 * application context to the same server instead.
 */
public final class RedisServerExtension implements ParameterResolver {

	/**
	 * Whether the parameter is a {@link RedisTestServer}.
	 * @param parameterContext the parameter
	 * @param extensionContext the current extension context
	 * @return {@code true} for parameters declared as {@code RedisTestServer}
	 */
	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisTestServer.class;
	}

	/**
	 * Resolves the shared server, starting it on first use.
	 * @param parameterContext the parameter
	 * @param extensionContext the current extension context
	 * @return the shared server
	 * @throws ParameterResolutionException if no server can be provided
	 */
	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		try {
			return RedisTestServers.shared();
		}
		catch (IllegalStateException ex) {
			throw new ParameterResolutionException(ex.getMessage(), ex);
		}
	}

}
