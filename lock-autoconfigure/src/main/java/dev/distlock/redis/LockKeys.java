package dev.distlock.redis;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * Names the keys that go with a lock key so that they hash to the same Redis Cluster slot, and
 * tells which slot a key is in.
 */
final class LockKeys {

	private static final String FENCE_SUFFIX = ":fence";

	private LockKeys() {
	}

	/**
	 * Returns the key of the fencing counter of a lock. A key with a hash tag keeps it; any
	 * other key becomes the hash tag of its counter, for example {@code {lock:sku:25}:fence}.
	 * @param lockKey the lock key
	 * @return the counter key, in the same slot as the lock key
	 */
	static String fenceKey(String lockKey) {
		if (hasHashTag(lockKey)) {
			return lockKey + FENCE_SUFFIX;
		}
		if (lockKey.indexOf('}') < 0) {
			return "{" + lockKey + "}" + FENCE_SUFFIX;
		}
		// A '}' would end the tag early: tag the key with a stand-in of the same slot instead.
		return "{" + SlotTags.TAGS[slot(lockKey)] + "}" + lockKey + FENCE_SUFFIX;
	}

	/**
	 * Returns the Redis Cluster slot of a key.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key);
	}

	/** One short hash tag per cluster slot, found once by trying "0", "1", "2", ... */
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

	private static boolean hasHashTag(String key) {
		int open = key.indexOf('{');
		if (open < 0) {
			return false;
		}
		int close = key.indexOf('}', open + 1);
		return close > open + 1;
	}

}
