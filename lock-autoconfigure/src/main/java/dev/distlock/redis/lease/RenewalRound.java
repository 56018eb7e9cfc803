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
