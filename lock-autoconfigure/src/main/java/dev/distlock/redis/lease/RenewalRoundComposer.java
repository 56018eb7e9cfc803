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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Composes the renewal rounds of one client from the holds registered for renewal: a
 * round drops the holds that have ended, whose holder thread died, or whose lease was
 * lost (telling the listener of the last two), claims those that are due, splits them
 * into {@link RenewalBatches batches}, and gives each batch to the {@link RenewalSender}.
 */
final class RenewalRoundComposer<H extends RenewedHold> {

	private final Set<H> renewing = ConcurrentHashMap.newKeySet();

	private final RenewalSender<H> sender;

	private final RenewalListener<H> listener;

	private final Duration lease;

	private final long periodNanos;

	private final boolean bySlot;

	/**
	 * Creates the composer of one client.
	 * @param lease the lease each round extends the holds to
	 * @param periodNanos how often rounds run: a hold sent less than that ago is not sent
	 * again
	 * @param bySlot whether each batch must hold keys of one cluster slot only
	 */
	RenewalRoundComposer(RenewalSender<H> sender, RenewalListener<H> listener, Duration lease, long periodNanos,
			boolean bySlot) {
		this.sender = sender;
		this.listener = listener;
		this.lease = lease;
		this.periodNanos = periodNanos;
		this.bySlot = bySlot;
	}

	void add(H handle) {
		this.renewing.add(handle);
	}

	void remove(H handle) {
		this.renewing.remove(handle);
	}

	int size() {
		return this.renewing.size();
	}

	void clear() {
		this.renewing.clear();
	}

	/** Composes a round of the holds registered now, and sends its batches. */
	void renewAll() {
		List<H> due = new ArrayList<>(this.renewing.size());
		long now = System.nanoTime();
		for (H handle : this.renewing) {
			if (handle.hasEnded()) {
				this.renewing.remove(handle);
			}
			else if (!handle.isHolderAlive()) {
				this.renewing.remove(handle);
				this.listener.holderDied(handle);
			}
			else if (handle.isLeaseLost()) {
				this.renewing.remove(handle);
				this.listener.leaseLost(handle, "its lease ran out before Redis confirmed a renewal");
			}
			else if (this.sender.claim(handle, now, this.periodNanos)) {
				due.add(handle);
			}
		}
		List<List<H>> batches = RenewalBatches.of(due, this.bySlot);
		RenewalRound round = new RenewalRound(this.listener, batches.size());
		for (List<H> batch : batches) {
			this.sender.send(batch, this.lease, now, round);
		}
		if (batches.isEmpty()) {
			this.listener.renewed(0, 0);
		}
	}

}
