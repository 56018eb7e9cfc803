/**
 * The lock's protocol with Redis, and the only code that knows it: the Lua scripts, the
 * name of every key and channel ({@link dev.distlock.redis.protocol.LockKeyspace}), and
 * the typed arguments and replies of each command
 * ({@link dev.distlock.redis.protocol.RedisLockCommands}). Internal to
 * {@code dev.distlock.redis}: public only because its sub-packages use it, with no
 * compatibility promise.
 */
@NullMarked
package dev.distlock.redis.protocol;

import org.jspecify.annotations.NullMarked;
