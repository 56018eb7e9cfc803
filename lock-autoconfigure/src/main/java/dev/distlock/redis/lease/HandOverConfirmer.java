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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Confirms hand-overs: extends a lock handed over to a waiter from its claim window, the
 * only time Redis keeps it for the new holder, to the holder's lease. It does not wait
 * for Redis; a confirmation that gets no answer is sent again, every
 * {@value #RETRY_MILLIS} ms on the renewal thread, while the hold lasts and its lease is
 * not lost (the lock expires with its claim window otherwise).
 */
final class HandOverConfirmer<H extends RenewedHold> {

	private static final long RETRY_MILLIS = 50;

	private final RenewalSender<H> sender;

	private final RenewalListener<H> listener;

	private final RenewalScheduler scheduler;

	HandOverConfirmer(RenewalSender<H> sender, RenewalListener<H> listener, RenewalScheduler scheduler) {
		this.sender = sender;
		this.listener = listener;
		this.scheduler = scheduler;
	}

	/**
	 * Sends the confirmation of a hand-over.
	 * @param handle the hold the lock was handed over to
	 */
	void confirm(H handle) {
		long now = System.nanoTime();
		this.sender.claim(handle, now, 0);
		RenewalRound round = new RenewalRound(this.listener, 1);
		this.sender.send(List.of(handle), handle.leaseTime(), now, (renewed) -> {
			round.accept(renewed);
			if (renewed < 0 && !handle.hasEnded() && !handle.isLeaseLost()) {
				retry(handle);
			}
		});
	}

	private void retry(H handle) {
		try {
			this.scheduler.start().schedule(() -> confirm(handle), RETRY_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (RuntimeException ex) {
			// Closed: the lock expires with its claim window.
		}
	}

}
