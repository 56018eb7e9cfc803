package dev.distlock.redis;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * Names the keys that go with a lock key, in the same Redis Cluster slot: the fencing counter,
 * and the lock's queue of waiters with their entries. Tells which slot a key is in.
 */
final class LockKeys {

	private static final String FENCE_KEY = "distlock:fence";

	private static final String QUEUE_PREFIX = "distlock:queue:";

	private static final String WAITERS_PREFIX = "distlock:waiters:";

	private LockKeys() {
	}

	/**
	 * Returns the key of the fencing counter that grants tokens to a lock. One counter serves
	 * many locks: every grant of any of them takes the next value, so each lock's tokens still
	 * increase strictly, while the number of counter keys stays bounded (one on a single server,
	 * at most one per hash slot on a cluster) however many lock keys are used.
	 * @param lockKey the lock key
	 * @param cluster whether Redis is a cluster, where the counter must share the lock's slot
	 * @return the counter key
	 */
	static String fenceKey(String lockKey, boolean cluster) {
		return slotTag(lockKey, cluster) + FENCE_KEY;
	}

	/**
	 * Returns the key of a lock's queue: the owner tokens of its waiters in arrival order. It
	 * exists only while someone waits.
	 * @param lockKey the lock key
	 * @param cluster whether Redis is a cluster, where the queue must share the lock's slot
	 * @return the queue key
	 */
	static String queueKey(String lockKey, boolean cluster) {
		return slotTag(lockKey, cluster) + QUEUE_PREFIX + lockKey;
	}

	/**
	 * Returns the key of the entries of a lock's waiters: per owner token, until when its place
	 * is valid, its lease and the channel to tell it on. It exists only while someone waits.
	 * @param lockKey the lock key
	 * @param cluster whether Redis is a cluster, where the entries must share the lock's slot
	 * @return the entries key
	 */
	static String waitersKey(String lockKey, boolean cluster) {
		return slotTag(lockKey, cluster) + WAITERS_PREFIX + lockKey;
	}

	private static String slotTag(String lockKey, boolean cluster) {
		return cluster ? "{" + SlotTags.TAGS[slot(lockKey)] + "}" : "";
	}

	/**
	 * Returns the Redis Cluster slot of a key.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key);
	}

	/** One short hash tag per cluster slot, found once (on first use) by trying "0", "1", "2", ... */
	private static final class SlotTags {

		static final String[] TAGS = new String[ClusterSlotHashUtil.SLOT_COUNT];

		static {
			int found = 0;
			for (int i = 0; found < TAGS.length; i++) {
				String tag = Integer.toString(i, 36);
				int slot = slot(tag);
				if (TAGS[slot] == null) {
					TAGS[slot] = tag;
					found++;
				}
			}
		}

	}

}
