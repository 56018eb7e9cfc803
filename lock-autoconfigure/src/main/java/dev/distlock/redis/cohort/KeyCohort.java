package dev.distlock.redis.cohort;

import java.util.ArrayDeque;
import java.util.Deque;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock among the threads of one client: whether the client holds it in
 * Redis (and with which owner token and which reserved fencing tokens), whether one of
 * its threads is acquiring it in Redis (the representative), and the threads waiting for
 * it here, in arrival order. Only {@link LocalCohort} and its {@link TurnWaiter} touch
 * it, always holding its monitor; a cohort that became idle is retired and removed from
 * its {@link KeyCohorts}. Waiters are only marked here, and woken after leaving the
 * monitor.
 */
final class KeyCohort {

	private final Deque<QueuedThread> waiters = new ArrayDeque<>();

	private @Nullable String heldToken;

	private @Nullable PassableHold holder;

	private boolean representative;

	private long nextFence;

	private long lastFence;

	private boolean retired;

	/**
	 * Whether no thread of the client holds or acquires the lock: the next one goes to
	 * Redis.
	 */
	boolean isFree() {
		return this.heldToken == null && !this.representative;
	}

	boolean isIdle() {
		return isFree() && this.waiters.isEmpty();
	}

	boolean hasWaiters() {
		return !this.waiters.isEmpty();
	}

	boolean isRetired() {
		return this.retired;
	}

	void retire() {
		this.retired = true;
	}

	void becomeRepresentative() {
		this.representative = true;
	}

	QueuedThread add(boolean passable) {
		QueuedThread waiter = new QueuedThread(passable);
		this.waiters.addLast(waiter);
		return waiter;
	}

	/** The representative got the lock in Redis with a block of fencing tokens. */
	void acquiredInRedis(PassableHold handle, int block) {
		this.representative = false;
		this.heldToken = handle.token();
		this.holder = handle;
		this.nextFence = handle.fencingToken() + 1;
		this.lastFence = handle.fencingToken() + block - 1;
	}

	/**
	 * The representative did not get the lock; the first waiter here takes its place.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread representativeGaveUp() {
		this.representative = false;
		return promoteFirst();
	}

	/**
	 * Passes the lock from a holder to the first waiter here, if that may be done without
	 * Redis.
	 * @return the waiter passed the lock, to wake; null if the lock must be released in
	 * Redis
	 */
	@Nullable QueuedThread passOn(PassableHold handle, boolean healthy) {
		QueuedThread first = this.waiters.peekFirst();
		if (this.holder != handle || first == null || !first.passable || !healthy || this.nextFence > this.lastFence) {
			return null;
		}
		this.waiters.pollFirst();
		this.holder = null;
		first.pass(new Baton(handle.token(), this.nextFence++, handle.leasePassedOn(), handle.leaseTime().toNanos()));
		return first;
	}

	/**
	 * The thread passed the lock found it run out: the client no longer holds the lock,
	 * and that thread acquires it in Redis next, as the representative.
	 */
	void rejectBaton(Baton baton) {
		if (baton.token().equals(this.heldToken)) {
			this.heldToken = null;
			this.holder = null;
		}
		this.representative = true;
	}

	/** The thread that was passed the lock now holds it with its own handle. */
	void heldBy(PassableHold handle) {
		if (handle.token().equals(this.heldToken)) {
			this.holder = handle;
		}
	}

	/**
	 * A hold ended in Redis: if it was the client's, the first waiter here goes to Redis
	 * next.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread releasedInRedis(PassableHold handle) {
		return handle.token().equals(this.heldToken) ? endTenure() : null;
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
		if (waiter.state() == QueuedThread.State.WAITING && this.holder != null && !this.holder.isHoldingHealthily()) {
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
			this.waiters.remove(waiter);
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
		this.heldToken = null;
		this.holder = null;
		return promoteFirst();
	}

	private @Nullable QueuedThread promoteFirst() {
		QueuedThread first = this.waiters.pollFirst();
		if (first != null) {
			this.representative = true;
			first.promote();
		}
		return first;
	}

}
