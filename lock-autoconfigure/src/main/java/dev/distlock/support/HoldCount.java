package dev.distlock.support;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the holds that share one lock of one thread: the outer hold, plus one per
 * re-entrant acquisition. The lock is released, or passed on, when the count falls to
 * zero, and can no longer be entered after that.
 */
public final class HoldCount {

	private final AtomicInteger holds = new AtomicInteger(1);

	/**
	 * Counts a re-entrant hold.
	 * @return whether it was counted; {@code false} if the last hold already ended
	 */
	public boolean enter() {
		int current;
		do {
			current = this.holds.get();
			if (current == 0) {
				return false;
			}
		}
		while (!this.holds.compareAndSet(current, current + 1));
		return true;
	}

	/**
	 * Ends one hold.
	 * @return whether it was the last one
	 */
	public boolean exit() {
		return this.holds.decrementAndGet() == 0;
	}

	/**
	 * Returns whether the last hold has ended.
	 * @return whether the count is zero
	 */
	public boolean hasEnded() {
		return this.holds.get() == 0;
	}

	/**
	 * Returns how many holds share the lock now.
	 * @return the count
	 */
	public int depth() {
		return this.holds.get();
	}

}
