package dev.distlock.memory;

/**
 * The state of one key in a {@link LockTable}: its holders, and the requests waiting for
 * it, first come, first served. An exclusive key has one holder at a time
 * ({@link KeyLine}); a read-write lock or a semaphore may have several
 * ({@link SharedKeyLine}). Touched only under the table's mutex.
 */
interface LockLine {

	/** The way every holder and waiter of the key locks it. */
	KeyKind kind();

	/**
	 * Brings the key up to date: takes it back from grants that ran out, ends minimum
	 * holds that are over, and grants it to the waiting requests at the head of the line
	 * that it admits now.
	 */
	void settle(long nowNanos, FencingTokens tokens);

	/** Whether a new request can be granted the key now, ahead of nobody. */
	boolean admitsNow(LockRequest request);

	/** Whether nobody holds, keeps or waits for the key, so that it can be forgotten. */
	boolean isFree();

	/** Grants the key to a request, which claims it when its thread takes it up. */
	Grant grant(LockRequest request, FencingTokens tokens);

	/** Puts a request at the end of the line. */
	void enqueue(LockRequest request);

	/** Whether the request is the first in line. */
	boolean isFirst(LockRequest request);

	/** Wakes the first waiting request to look again when the key may become free. */
	void alertFirst();

	/**
	 * Takes a request that gives up out of the line; a grant it was given in the
	 * meantime, which it never used, is taken back.
	 */
	void leave(LockRequest request);

	/**
	 * Ends a grant, if it still holds the key: the key stays kept until the end of its
	 * minimum hold.
	 * @param keepUntilNanos the end of the grant's minimum hold
	 * @return whether the grant still held the key
	 */
	boolean release(Grant grant, long keepUntilNanos, long nowNanos);

	/**
	 * Returns how long the first waiter may sleep before the key can admit it without a
	 * release: until a fixed lease or a minimum hold ends, or, for an auto-renewing
	 * lease, one lease, after which it checks whether the holder thread has ended.
	 */
	long nanosUntilChange(long nowNanos);

}
