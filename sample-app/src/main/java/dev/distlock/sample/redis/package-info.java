/**
 * The embedded Redis server the sample starts when no Redis is configured.
 */
@NullMarked
package dev.distlock.sample.redis;

import org.jspecify.annotations.NullMarked;
