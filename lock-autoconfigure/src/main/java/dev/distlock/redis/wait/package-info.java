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
 * How an acquirer waits for a lock someone else holds: with a jittered backoff between
 * attempts ({@link dev.distlock.redis.wait.JitteredBackoffWaiter}), or in the lock's
 * queue in Redis until a release hands it the lock over
 * ({@link dev.distlock.redis.wait.ReleaseMessageWaiter}, fed by the client's
 * {@link dev.distlock.redis.wait.ReleaseSubscription}, or on a cluster by its
 * {@link dev.distlock.redis.wait.ShardedReleaseSubscription} to one sharded channel per
 * slot waited on). {@link dev.distlock.redis.wait.LockWaiter} and
 * {@link dev.distlock.redis.wait.JitteredBackoffWaiter} may be given to the client's
 * builder; the other types are internal to {@code dev.distlock.redis}: public only
 * because its parent package uses them, with no compatibility promise.
 */
@NullMarked
package dev.distlock.redis.wait;

import org.jspecify.annotations.NullMarked;
