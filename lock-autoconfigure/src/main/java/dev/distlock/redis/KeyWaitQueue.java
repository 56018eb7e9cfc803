package dev.distlock.redis;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The threads of this JVM waiting for one lock, in arrival order. A release wakes only the first
 * of them; a waiter that leaves without the lock after being woken passes the wake-up on, so no
 * release is lost and the waiters do not stampede.
 */
final class KeyWaitQueue {

	private final Deque<Waiter> waiters = new ArrayDeque<>();

	synchronized Waiter add() {
		Waiter waiter = new Waiter();
		this.waiters.addLast(waiter);
		return waiter;
	}

	synchronized boolean remove(Waiter waiter) {
		this.waiters.remove(waiter);
		return this.waiters.isEmpty();
	}

	synchronized int size() {
		return this.waiters.size();
	}

	/** Wakes the first waiter, if any. */
	void wakeFirst() {
		Waiter first;
		synchronized (this) {
			first = this.waiters.peekFirst();
		}
		if (first != null) {
			first.wake();
		}
	}

	/**
	 * One waiting thread. A wake-up that arrives while it is not waiting is kept for its next
	 * wait.
	 */
	static final class Waiter {

		private final Semaphore wakeUps = new Semaphore(0);

		void wake() {
			if (this.wakeUps.availablePermits() == 0) {
				this.wakeUps.release();
			}
		}

		/** Waits for a wake-up; returns whether one came, throws if interrupted. */
		boolean await(long timeoutNanos) throws InterruptedException {
			return timeoutNanos > 0 && this.wakeUps.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
		}

		/** Takes a pending wake-up; returns whether there was one. */
		boolean takePending() {
			return this.wakeUps.tryAcquire();
		}

	}

}
