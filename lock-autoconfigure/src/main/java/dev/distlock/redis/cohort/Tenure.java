package dev.distlock.redis.cohort;

import org.jspecify.annotations.Nullable;

/**
 * The client's tenure of one lock in Redis, as its {@link KeyCohort} keeps it: the owner
 * token the key is held with, the hold that has the lock now (none while it passes
 * between threads), and the fencing tokens of the block the grant in Redis reserved that
 * no hold has taken yet. Touched only under the monitor of its {@link KeyCohort}.
 */
final class Tenure {

	private @Nullable String token;

	private @Nullable PassableHold holder;

	private long nextFence;

	private long lastFence;

	/** Whether the client holds the lock in Redis. */
	boolean isHeld() {
		return this.token != null;
	}

	/** Whether the client holds the lock in Redis with the given owner token. */
	boolean isHeldWith(String token) {
		return token.equals(this.token);
	}

	/** Whether the given hold is the one that has the lock now. */
	boolean isHolder(PassableHold handle) {
		return this.holder == handle;
	}

	/**
	 * Whether a hold has the lock now that may no longer have it: its thread died or its
	 * lease is in doubt.
	 */
	boolean hasFailingHolder() {
		return this.holder != null && !this.holder.isHoldingHealthily();
	}

	/** Whether the block still has a fencing token for another hold. */
	boolean hasTokensLeft() {
		return this.nextFence <= this.lastFence;
	}

	/**
	 * Begins a tenure: the hold got the lock in Redis with a block of fencing tokens, the
	 * first of them its own.
	 */
	void begin(PassableHold handle, int block) {
		this.token = handle.token();
		this.holder = handle;
		this.nextFence = handle.fencingToken() + 1;
		this.lastFence = handle.fencingToken() + block - 1;
	}

	/**
	 * Takes the lock from its holder to pass it on, with the next fencing token of the
	 * block.
	 * @return what passes to the next holder
	 */
	Baton passOn(PassableHold handle) {
		this.holder = null;
		return new Baton(handle.token(), this.nextFence++, handle.leasePassedOn(), handle.leaseTime().toNanos());
	}

	/** The thread passed the lock now holds it with its own handle, if still held. */
	void heldBy(PassableHold handle) {
		if (isHeldWith(handle.token())) {
			this.holder = handle;
		}
	}

	/** Ends the tenure: the client no longer holds the lock in Redis. */
	void end() {
		this.token = null;
		this.holder = null;
	}

}
