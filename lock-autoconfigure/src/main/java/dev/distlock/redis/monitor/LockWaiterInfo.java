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

import dev.distlock.LockKind;

/**
 * A caller of a {@link dev.distlock.redis.RedisLockClient} waiting for a lock that
 * another holder has, as its {@link RedisLockMonitor} reports it.
 *
 * @param name the logical name of the lock
 * @param key the Redis key of the lock
 * @param thread the name of the waiting thread
 * @param waitingFor how long it has been waiting
 * @param kind the kind of lock it waits for: {@value LockKind#EXCLUSIVE},
 * {@value LockKind#READ_WRITE} or {@value LockKind#SEMAPHORE}
 * @param mode the mode it waits for: {@code exclusive}, {@code read} or {@code write}
 * @param permits how many holders the key admits: more than 1 for a semaphore, else 1
 */
public record LockWaiterInfo(String name, String key, String thread, Duration waitingFor, String kind, String mode,
		int permits) {

}
