package dev.distlock.redis;

/**
 * What one acquire attempt got back from Redis: either the lock, with the first fencing token
 * of the block it reserved, or the holder's remaining lease and the fencing counter as the
 * attempt found it. A hand-over whose fencing token is at or below that counter was granted
 * before the attempt ran, and was therefore void by then (the attempt would otherwise have
 * found the lock set to its own token).
 *
 * @param granted whether the attempt acquired the lock
 * @param fencingToken the first fencing token of the reserved block, if granted; else 0
 * @param holderLeaseMillis the holder's remaining lease in ms, if not granted; else 0
 * @param fenceCounter the fencing counter when the attempt found the lock held; else 0
 */
record AcquireReply(boolean granted, long fencingToken, long holderLeaseMillis, long fenceCounter) {

	static AcquireReply granted(long fencingToken) {
		return new AcquireReply(true, fencingToken, 0, 0);
	}

	static AcquireReply held(long holderLeaseMillis, long fenceCounter) {
		return new AcquireReply(false, 0, holderLeaseMillis, fenceCounter);
	}

}
