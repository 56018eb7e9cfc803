/**
 * The embedded Redis server the sample starts when no Redis is configured, where the
 * development-only {@code lock-test-support} is on the class path, and the startup
 * failure that replaces it where it is not.
 */
@NullMarked
package dev.distlock.sample.redis;

import org.jspecify.annotations.NullMarked;
