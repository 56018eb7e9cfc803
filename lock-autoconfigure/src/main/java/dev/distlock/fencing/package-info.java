/**
 * Fenced writes: stores that apply a write only if the writer's fencing token is not
 * below the one stored with the data, in a database
 * ({@link dev.distlock.fencing.FencedJdbc}) or in Redis
 * ({@link dev.distlock.fencing.FencedRedis}).
 */
@NullMarked
package dev.distlock.fencing;

import org.jspecify.annotations.NullMarked;
