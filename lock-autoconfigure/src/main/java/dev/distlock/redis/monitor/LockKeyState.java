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

package dev.distlock.redis.monitor;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockKind;

/**
 * The state of one lock key in Redis, as a {@link RedisLockMonitor} reads it. It never
 * carries the owner token of whoever holds the key.
 *
 * @param key the Redis key
 * @param held whether the key exists, held by this client or anyone else
 * @param timeToLive how long Redis keeps the key unless it is renewed or released, or
 * {@code null} if the key does not exist or never expires
 * @param heldByThisInstance whether a lock of this instance (this client) holds the key
 * @param hold the lock of this client that holds the key, if one does; of a shared key,
 * the first of this client's holders
 * @param kind {@value LockKind#EXCLUSIVE}, {@value LockKind#READ_WRITE} or
 * {@value LockKind#SEMAPHORE}, or {@code null} if the key does not exist
 * @param permits how many holders a semaphore admits, or {@code null} unless the key is a
 * semaphore
 * @param waiters how many callers wait in the queue of a read-write lock or semaphore, or
 * {@code null} for an exclusive lock
 * @param holders every holder of a read-write lock or semaphore whose lease has not
 * ended, earliest expiry first; empty for an exclusive lock
 */
public record LockKeyState(String key, boolean held, @Nullable Duration timeToLive, boolean heldByThisInstance,
		@Nullable HeldLockInfo hold, @Nullable String kind, @Nullable Integer permits, @Nullable Integer waiters,
		List<LockHolderInfo> holders) {

}
