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

package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.redis.lease.Lease;

/**
 * What an acquisition was granted: the first fencing token of the block reserved for it,
 * the size of the block, when the request that the grant counts from was sent, and how
 * long Redis keeps the lock from then (the lease, or the claim window of a hand-over).
 *
 * @param fencingToken the first fencing token of the block
 * @param block how many fencing tokens were reserved
 * @param sentNanos when the request the grant counts from was sent
 * @param validFor how long Redis keeps the lock from then
 */
record Grant(long fencingToken, int block, long sentNanos, Duration validFor) {

	/**
	 * Whether the grant may have run out already, by the local count (see {@link Lease}).
	 */
	boolean hasRunOut() {
		return System.nanoTime() - Lease.validUntil(this.sentNanos, this.validFor) >= 0;
	}

	/**
	 * Returns the validity the grant gives a hold of the given lease: the claim window of
	 * a hand-over, which Redis keeps for less than the lease until the holder confirms
	 * it, or the lease.
	 */
	Lease lease(Duration leaseTime) {
		return (this.validFor.compareTo(leaseTime) < 0) ? Lease.claimed(this.sentNanos, this.validFor)
				: Lease.granted(this.sentNanos, this.validFor);
	}

}
