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
 * Release messages: waiting in a lock's queue in Redis until a release hands the lock
 * over by message ({@link dev.distlock.redis.messages.ReleaseMessageWaiter} for blocking
 * callers, {@link dev.distlock.redis.messages.AsyncWait} for reactive ones), fed by the
 * client's subscription to its release channel
 * ({@link dev.distlock.redis.messages.ReleaseSubscription}), or on a cluster by its
 * {@link dev.distlock.redis.messages.ShardedReleaseSubscription} to one sharded channel
 * per slot waited on. Internal to {@code dev.distlock.redis}: public only because its
 * parent package uses it, with no compatibility promise.
 */
@NullMarked
package dev.distlock.redis.messages;

import org.jspecify.annotations.NullMarked;
