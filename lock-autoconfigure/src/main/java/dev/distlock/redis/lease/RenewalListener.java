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

package dev.distlock.redis.lease;

/**
 * Told what renewal found out about the holds it renews.
 *
 * @param <H> the type of the holds
 */
public interface RenewalListener<H extends RenewedHold> {

	/**
	 * The hold's local validity ran out before Redis confirmed a renewal.
	 * @param hold the hold
	 * @param reason why, for the log
	 */
	void leaseLost(H hold, String reason);

	/**
	 * Redis answered that the hold's key was gone or held with another token: every hold
	 * of this client with the same key and token has lost the lock.
	 * @param hold the hold
	 * @param reason why, for the log
	 */
	void tokenLost(H hold, String reason);

	/**
	 * The hold's thread ended without releasing it; it is no longer renewed and expires
	 * with its lease.
	 * @param hold the hold
	 */
	void holderDied(H hold);

	/**
	 * A renewal round ended.
	 * @param renewed how many leases it renewed
	 * @param roundTrips how many commands it sent
	 */
	void renewed(int renewed, int roundTrips);

}
