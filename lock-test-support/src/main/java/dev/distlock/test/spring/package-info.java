/**
 * Spring TestContext support: {@link dev.distlock.test.spring.WithRedisTestServer}
 * connects the Redis of a Spring Boot test to the shared test server.
 */
@org.jspecify.annotations.NullMarked
package dev.distlock.test.spring;
