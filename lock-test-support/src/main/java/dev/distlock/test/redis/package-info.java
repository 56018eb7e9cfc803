/**
 * Real Redis servers for tests and for an embedded default: an external URL, a
 * Testcontainers container or a {@code redis-server} process.
 */
@org.jspecify.annotations.NullMarked
package dev.distlock.test.redis;
