package dev.distlock.redis.protocol;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.InvalidLockKeyException;

/**
 * Names every key and channel distlock touches, all under one prefix: the Redis key of
 * each lock ({@code <prefix><key>}), and distlock's own keys and channels in the reserved
 * namespace {@code <prefix>distlock:}: the fencing counter, each lock's queue of waiters
 * with their entries, and each client's release channel (on a cluster with sharded
 * pub/sub, one per slot). On a cluster, a lock's own keys and sharded channels carry a
 * hash tag that puts them in the lock's slot. Lock keys are checked here
 * ({@link LockKeyRules}), so that none can fall into the reserved namespace.
 */
public final class LockKeyspace {

	/** The namespace of distlock's own keys and channels, after the prefix. */
	public static final String RESERVED = "distlock:";

	private final String prefix;

	private final boolean cluster;

	private final LockKeyRules rules;

	/**
	 * Creates the keyspace of a client.
	 * @param prefix prepended to every key and channel, may be empty
	 * @param cluster whether Redis is a cluster, where a lock's own keys must share its
	 * slot
	 * @param maxKeyLength the longest lock key accepted, in characters, without the
	 * prefix
	 * @throws DistributedLockConfigurationException if, on a cluster, the prefix opens a
	 * hash tag it does not fill and close
	 */
	public LockKeyspace(String prefix, boolean cluster, int maxKeyLength) {
		int open = prefix.indexOf('{');
		if (cluster && open >= 0 && prefix.indexOf('}', open) <= open + 1) {
			throw new DistributedLockConfigurationException("distlock.key-prefix \"" + prefix + "\" opens a Redis "
					+ "Cluster hash tag with '{' that it does not fill and close, so a lock's keys would fall into "
					+ "different slots",
					"Remove the '{' from distlock.key-prefix, or close the tag, for example "
							+ "\"{app}:\" to keep every lock in one slot.");
		}
		this.prefix = prefix;
		this.cluster = cluster;
		this.rules = new LockKeyRules(RESERVED, maxKeyLength);
	}

	/**
	 * Returns the Redis key of a lock.
	 * @param key the key as given by the caller
	 * @return the key after the prefix
	 * @throws InvalidLockKeyException if the key is blank, too long, or in the reserved
	 * namespace
	 */
	public String lockKey(String key) {
		this.rules.check(key);
		return this.prefix + key;
	}

	/**
	 * Returns the key of the fencing counter that grants tokens to a lock. One counter
	 * serves many locks: every grant of any of them takes the next value, so each lock's
	 * tokens still increase strictly, while the number of counter keys stays bounded (one
	 * on a single server, at most one per hash slot on a cluster) however many lock keys
	 * are used.
	 * @param lockKey the Redis key of the lock
	 * @return the counter key
	 */
	public String fenceKey(String lockKey) {
		return own(lockKey) + "fence";
	}

	/**
	 * Returns the key of a lock's queue: the owner tokens of its waiters in arrival
	 * order. It exists only while someone waits.
	 * @param lockKey the Redis key of the lock
	 * @return the queue key
	 */
	public String queueKey(String lockKey) {
		return own(lockKey) + "queue:" + lockKey.substring(this.prefix.length());
	}

	/**
	 * Returns the key of the entries of a lock's waiters: per owner token, until when its
	 * place is valid, its claim window, its block of tokens, and the channel to tell it
	 * on with the command to publish there ({@code PUBLISH}, or {@code SPUBLISH} for a
	 * {@link #shardedReleaseChannel(String, int) sharded channel}). It exists only while
	 * someone waits.
	 * @param lockKey the Redis key of the lock
	 * @return the entries key
	 */
	public String waitersKey(String lockKey) {
		return own(lockKey) + "waiters:" + lockKey.substring(this.prefix.length());
	}

	/**
	 * Returns the channel on which releases tell a client's waiters that they were handed
	 * a lock.
	 * @param clientId the client's id
	 * @return the channel
	 */
	public String releaseChannel(String clientId) {
		return this.prefix + RESERVED + "released:" + clientId;
	}

	/**
	 * Returns the sharded channel on which releases of the locks of one cluster slot tell
	 * a client's waiters that they were handed a lock: in that slot, so that a release
	 * script may {@code SPUBLISH} on it and the message stays on the slot's shard.
	 * @param clientId the client's id
	 * @param slot the cluster slot of the locks
	 * @return the channel, {@code <prefix>distlock:{<tag>}:released:<clientId>}
	 */
	public String shardedReleaseChannel(String clientId, int slot) {
		return this.prefix + RESERVED + "{" + ClusterSlotTags.tagOf(slot) + "}:released:" + clientId;
	}

	/**
	 * Returns whether a release channel of this keyspace is a sharded one, on which
	 * releases {@code SPUBLISH} rather than {@code PUBLISH}.
	 * @param channel a channel from {@link #releaseChannel(String)} or
	 * {@link #shardedReleaseChannel(String, int)}
	 * @return whether the channel is sharded
	 */
	public boolean isShardedChannel(String channel) {
		return channel.startsWith(this.prefix + RESERVED + "{");
	}

	/**
	 * Returns the key that health checks lock, to exercise the permissions of a real
	 * lock.
	 * @param clientId the client's id
	 * @return the Redis key of the health check's lock
	 */
	public String healthKey(String clientId) {
		return this.prefix + RESERVED + "health:" + clientId;
	}

	/**
	 * Returns the key that health checks lock on a cluster to exercise one master: a key
	 * of the given slot.
	 * @param clientId the client's id
	 * @param slot the slot, 0 to 16383
	 * @return the Redis key of the health check's lock in that slot
	 */
	public String healthKey(String clientId, int slot) {
		return this.prefix + RESERVED + "{" + ClusterSlotTags.tagOf(slot) + "}:health:" + clientId;
	}

	/**
	 * Returns whether Redis is a cluster, where a lock's own keys share its slot.
	 * @return whether Redis is a cluster
	 */
	public boolean isCluster() {
		return this.cluster;
	}

	private String own(String lockKey) {
		return this.prefix + RESERVED + (this.cluster ? "{" + ClusterSlotTags.tagOf(slot(lockKey)) + "}:" : "");
	}

	/**
	 * Returns the Redis Cluster slot of a key.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	public static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key);
	}

}
