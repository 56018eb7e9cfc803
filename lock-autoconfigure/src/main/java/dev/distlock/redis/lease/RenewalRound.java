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

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * One round of renewals, whose batches are answered on sender threads in any order: it
 * adds up the leases renewed and tells the client's listeners once, when the last batch
 * has been answered or has failed.
 */
final class RenewalRound implements IntConsumer {

	private final RenewalListener<?> listener;

	private final int batches;

	private final AtomicInteger outstanding;

	private final AtomicInteger renewed = new AtomicInteger();

	RenewalRound(RenewalListener<?> listener, int batches) {
		this.listener = listener;
		this.batches = batches;
		this.outstanding = new AtomicInteger(batches);
	}

	/**
	 * Records one batch as done.
	 * @param renewedInBatch how many of its leases were renewed, -1 if it failed
	 */
	@Override
	public void accept(int renewedInBatch) {
		int total = this.renewed.addAndGet(Math.max(renewedInBatch, 0));
		if (this.outstanding.decrementAndGet() == 0) {
			this.listener.renewed(total, this.batches);
		}
	}

}
