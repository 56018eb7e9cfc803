package dev.distlock.redis.cohort;

import java.util.Deque;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock among the threads of one client: whether the client holds it in
 * Redis (its {@link Tenure}: with which owner token and which reserved fencing tokens),
 * and the {@link ThreadLine line} of its threads: whether one of them is acquiring it in
 * Redis (the representative), and those waiting for it here, in arrival order. Only
 * {@link LocalCohort} and its {@link TurnWaiter} touch it, always holding its monitor; a
 * cohort that became idle is retired and removed from its {@link KeyCohorts}. Waiters are
 * only marked here, and woken after leaving the monitor.
 */
final class KeyCohort {

	private final Tenure tenure = new Tenure();

	private final ThreadLine line = new ThreadLine();

	private boolean retired;

	/**
	 * Whether no thread of the client holds or acquires the lock: the next one goes to
	 * Redis.
	 */
	boolean isFree() {
		return !this.tenure.isHeld() && !this.line.hasRepresentative();
	}

	boolean isIdle() {
		return isFree() && !this.line.hasWaiters();
	}

	boolean hasWaiters() {
		return this.line.hasWaiters();
	}

	boolean isRetired() {
		return this.retired;
	}

	void retire() {
		this.retired = true;
	}

	void becomeRepresentative() {
		this.line.becomeRepresentative();
	}

	QueuedThread add(boolean passable) {
		return this.line.add(passable);
	}

	/** The representative got the lock in Redis with a block of fencing tokens. */
	void acquiredInRedis(PassableHold handle, int block) {
		this.line.representativeDone();
		this.tenure.begin(handle, block);
	}

	/**
	 * The representative did not get the lock; the first waiter here takes its place.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread representativeGaveUp() {
		this.line.representativeDone();
		return this.line.promoteFirst();
	}

	/**
	 * Passes the lock from a holder to the first waiter here, if that may be done without
	 * Redis.
	 * @return the waiter passed the lock, to wake; null if the lock must be released in
	 * Redis
	 */
	@Nullable QueuedThread passOn(PassableHold handle, boolean healthy) {
		QueuedThread first = this.line.first();
		if (!this.tenure.isHolder(handle) || first == null || !first.passable || !healthy
				|| !this.tenure.hasTokensLeft()) {
			return null;
		}
		this.line.removeFirst();
		first.pass(this.tenure.passOn(handle));
		return first;
	}

	/**
	 * The thread passed the lock found it run out: the client no longer holds the lock,
	 * and that thread acquires it in Redis next, as the representative.
	 */
	void rejectBaton(Baton baton) {
		if (this.tenure.isHeldWith(baton.token())) {
			this.tenure.end();
		}
		this.line.becomeRepresentative();
	}

	/** The thread that was passed the lock now holds it with its own handle. */
	void heldBy(PassableHold handle) {
		this.tenure.heldBy(handle);
	}

	/**
	 * A hold ended in Redis: if it was the client's, the first waiter here goes to Redis
	 * next.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread releasedInRedis(PassableHold handle) {
		return this.tenure.isHeldWith(handle.token()) ? endTenure() : null;
	}

	/**
	 * Settles a waiter whose wait ended without a pass or promotion: a holder that died
	 * or whose lease is in doubt no longer keeps the waiters here (the first of them goes
	 * to Redis), and a waiter that gives up leaves, passing on the representative's part
	 * if it had just been given it.
	 * @param wake collects the waiters to wake
	 * @return the waiter's state
	 */
	QueuedThread.State settle(QueuedThread waiter, boolean givingUp, Deque<QueuedThread> wake) {
		if (waiter.state() == QueuedThread.State.WAITING && this.tenure.hasFailingHolder()) {
			addTo(wake, endTenure());
		}
		QueuedThread.State state = waiter.state();
		if (!givingUp || state == QueuedThread.State.PASSED) {
			return state;
		}
		if (state == QueuedThread.State.PROMOTED) {
			addTo(wake, representativeGaveUp());
		}
		else {
			this.line.leave(waiter);
		}
		return QueuedThread.State.GAVE_UP;
	}

	private static void addTo(Deque<QueuedThread> wake, @Nullable QueuedThread waiter) {
		if (waiter != null) {
			wake.add(waiter);
		}
	}

	/** The client no longer holds the lock: the first waiter here goes to Redis next. */
	private @Nullable QueuedThread endTenure() {
		this.tenure.end();
		return this.line.promoteFirst();
	}

}
