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
 * Passing a lock between the threads of one client without Redis (lock cohorting): per
 * key, the threads of the client that want the lock queue here, one of them acquires it
 * in Redis as the representative, and a holder that releases passes it to the next thread
 * with the next fencing token of the block its grant reserved. {@link LocalCohort} holds
 * the whole flow, from a thread's {@link Turn} to the pass of a {@link Baton}; the
 * {@code KeyCohort} of each key keeps its state (the client's tenure of the lock in Redis
 * and the line of its threads); a hold of the parent package takes part as a
 * {@link PassableHold}. Internal to {@code dev.distlock.redis}: public only because its
 * parent package uses it, with no compatibility promise.
 */
@NullMarked
package dev.distlock.redis.cohort;

import org.jspecify.annotations.NullMarked;
