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
 * How an acquirer waits for a lock someone else holds, as a user may choose it: a
 * {@link dev.distlock.redis.wait.LockWaiter} given to the client's builder, such as a
 * jittered backoff between attempts
 * ({@link dev.distlock.redis.wait.JitteredBackoffWaiter}), and the timings that waiting
 * in a lock's queue keeps ({@link dev.distlock.redis.wait.WaitTimings}). Waiting in the
 * queue until a release hands the lock over by message is internal, in
 * {@code dev.distlock.redis.messages}, which this package does not use.
 */
@NullMarked
package dev.distlock.redis.wait;

import org.jspecify.annotations.NullMarked;
