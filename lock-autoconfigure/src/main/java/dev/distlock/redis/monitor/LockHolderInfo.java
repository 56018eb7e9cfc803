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

import org.jspecify.annotations.Nullable;

/**
 * One holder of a read-write lock or a semaphore in Redis, as
 * {@link RedisLockMonitor#keyState(String)} reads it: never its owner token.
 *
 * @param kind {@code reader}, {@code writer}, {@code permit}, or {@code unknown} for a
 * holder whose token has a form this version does not know
 * @param leaseRemaining how long its lease lasts, by the Redis server's clock
 * @param heldByThisInstance whether it is a hold of this instance (this client)
 * @param hold this client's hold, if it is one
 */
public record LockHolderInfo(String kind, Duration leaseRemaining, boolean heldByThisInstance,
		@Nullable HeldLockInfo hold) {

}
