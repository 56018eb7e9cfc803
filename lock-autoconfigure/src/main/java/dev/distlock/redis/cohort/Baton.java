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

package dev.distlock.redis.cohort;

import dev.distlock.redis.lease.Lease;

/**
 * What passes from one holder to the next within a client, without Redis: the owner token
 * the lock is held with in Redis, the fencing token of the new hold (the next of the
 * block the grant in Redis reserved), the validity it shares with the previous holder,
 * and the lease.
 *
 * @param token the owner token of the lock in Redis
 * @param fencingToken the fencing token of the new hold
 * @param lease the validity of the new hold, shared with the previous one
 * @param leaseNanos the lease, in nanoseconds
 */
public record Baton(String token, long fencingToken, Lease lease, long leaseNanos) {
}
