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
 * What a {@link dev.distlock.redis.RedisLockClient} reports for the actuator endpoint and
 * health check: its {@link dev.distlock.redis.monitor.RedisLockMonitor} and the records
 * it answers with (held locks, waiting callers, the state of a key, eviction policies,
 * the state of the release subscriptions). Uses nothing else of
 * {@code dev.distlock.redis}.
 */
@NullMarked
package dev.distlock.redis.monitor;

import org.jspecify.annotations.NullMarked;
