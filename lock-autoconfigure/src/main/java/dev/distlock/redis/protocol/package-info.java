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
