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
import java.time.Instant;

import dev.distlock.LockKind;

/**
 * A lock that a {@link dev.distlock.redis.RedisLockClient} holds, as its
 * {@link RedisLockMonitor} reports it. The owner token is never part of it.
 *
 * @param name the logical name of the lock
 * @param key the Redis key of the lock
 * @param acquiredAt when the lock was acquired, by this machine's clock
 * @param heldFor how long the lock has been held
 * @param leaseRemaining how long the lease lasts without a further renewal, by this
 * process's count since the acquisition or the last renewal; zero once it has run out
 * @param autoRenewing whether the lease is renewed automatically
 * @param fencingToken the fencing token of the grant, or 0 if none was issued yet: a lock
 * acquired without the acquire script is issued its token when its holder first asks
 * @param reentrancyDepth how many holds of the holder thread share the lock: 1, plus one
 * per re-entrant acquisition
 * @param thread the name of the holder thread
 * @param leaseLost whether the lease has been found lost
 * @param kind the kind of lock: {@value LockKind#EXCLUSIVE}, {@value LockKind#READ_WRITE}
 * or {@value LockKind#SEMAPHORE}
 * @param mode how it is held: {@code exclusive}, {@code read} or {@code write}
 * @param permits how many holders the key admits: more than 1 for a semaphore, else 1
 */
public record HeldLockInfo(String name, String key, Instant acquiredAt, Duration heldFor, Duration leaseRemaining,
		boolean autoRenewing, long fencingToken, int reentrancyDepth, String thread, boolean leaseLost, String kind,
		String mode, int permits) {

}
