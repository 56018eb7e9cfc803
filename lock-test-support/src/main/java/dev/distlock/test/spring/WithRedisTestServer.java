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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.distlock.test.redis.RedisTestServers;

/**
 * Connects the Redis of a Spring Boot test's application context to the
 * {@linkplain RedisTestServers#shared() shared test server}, as Spring Boot's
 * {@code @ServiceConnection} does for a container: the context gets a
 * {@code DataRedisConnectionDetails} bean with the server's host and port, which Spring
 * Boot's Redis auto-configuration uses instead of the connection properties
 * ({@code spring.data.redis.host}, {@code port}, {@code url}, {@code password},
 * {@code database}, {@code sentinel.*}, {@code cluster.*}). Its other properties, such as
 * timeouts and pooling, still apply, and the {@code Environment} is left as it is.
 *
 * <pre class="code">
 * &#064;SpringBootTest
 * &#064;WithRedisTestServer
 * class StockServiceIntegrationTests {
 *
 *     &#064;Autowired
 *     StockService stock;
 *
 * }
 * </pre>
 *
 * The server comes from {@code DISTLOCK_TEST_REDIS_URL}, else a Testcontainers container
 * where Docker runs, else a {@code redis-server} process, and is started when the first
 * context that needs it is created. Without any, the context fails to load with a message
 * saying how to provide one. Every context of the test JVM shares the server: give the
 * keys of each test a part of their own.
 * <p>
 * Needs Spring Boot's Redis support ({@code spring-boot-data-redis}, which
 * {@code dev.distlock:lock-starter} brings). A {@code RedisConnectionFactory} the
 * application builds itself does not read connection details; point it at
 * {@link RedisTestServers#shared()} in the test instead. Found on the test class, its
 * superclasses, its enclosing classes (for {@code @Nested} tests) and as a
 * meta-annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface WithRedisTestServer {

}
