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
 * The lock client on Redis and the lifecycle of a hold:
 * {@link dev.distlock.redis.RedisLockClient} acquires
 * ({@link dev.distlock.redis.LockAcquirer}: a turn among the client's threads, attempts
 * in Redis, a grant), and a handle's release ends the hold
 * ({@link dev.distlock.redis.LockReleaser}). Dependencies point one way, to the
 * sub-packages: {@code monitor} (what the client reports), {@code cohort} (passing within
 * the client), {@code messages} (waiting in a lock's queue for a hand-over message),
 * {@code wait} (how to wait between attempts), {@code lease} (validity and renewal),
 * {@code protocol} (the scripts, keys and replies). The public API is
 * {@link dev.distlock.redis.RedisLockClient} with its builder,
 * {@link dev.distlock.redis.ReactiveRedisLockClient}, {@code monitor} and {@code wait};
 * the other sub-packages are internal.
 * <p>
 * Words with one meaning each:
 * <ul>
 * <li><em>pass</em>: a holder gives the lock to another thread of the same client,
 * without Redis; the key keeps its owner token.</li>
 * <li><em>hand over</em>: a release in Redis gives the lock to the first waiter in the
 * lock's queue, of any client, and tells it on its client's channel.</li>
 * <li><em>turn</em>: what a thread does after lining up among the threads of its client
 * that want the same key: hold a passed lock, acquire in Redis as the client's
 * representative, or give up.</li>
 * <li><em>tenure</em>: the span during which the client holds a key in Redis under one
 * owner token, across the passes within it.</li>
 * <li><em>block</em>: the consecutive fencing tokens a grant in Redis reserves for one
 * tenure, one per hold; its size is a count of tokens.</li>
 * </ul>
 */
@NullMarked
package dev.distlock.redis;

import org.jspecify.annotations.NullMarked;
