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
 * Leases: a hold's local and conservative validity
 * ({@link dev.distlock.redis.lease.Lease}), and their renewal
 * ({@link dev.distlock.redis.lease.LeaseRenewer}, one class for the whole flow: rounds in
 * batches, hand-over confirmations, and the watch of every hold's local deadline), which
 * needs only what {@link dev.distlock.redis.lease.RenewedHold} says of a hold and reports
 * what it finds through a {@link dev.distlock.redis.lease.RenewalListener}, never by
 * calling back into the holds' owner. Internal to {@code dev.distlock.redis}: public only
 * because its parent package uses it, with no compatibility promise.
 */
@NullMarked
package dev.distlock.redis.lease;

import org.jspecify.annotations.NullMarked;
