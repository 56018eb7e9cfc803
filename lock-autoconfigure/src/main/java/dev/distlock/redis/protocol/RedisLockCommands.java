package dev.distlock.redis.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis commands of the lock, one round trip each: acquire (or queue), release (or
 * hand over) and batch renewal, and for monitoring, inspecting a key and checking the
 * scripts. Failures are thrown as Spring's {@code DataAccessException}s. Every command is
 * recorded in the client's {@link RedisReachability}.
 */
public final class RedisLockCommands {

	private final StringRedisTemplate redis;

	private final LockKeyspace keyspace;

	private final RedisReachability reachability;

	private final ReachabilityRecorder recorder;

	/**
	 * How long a release keeps a lock it hands over until the new holder confirms it, in
	 * ms.
	 */
	private final long claimWindowMillis;

	private final ReplicaAcknowledgement acknowledgement;

	/**
	 * Creates the commands of one client.
	 * @param redis the connection to Redis
	 * @param keyspace the names of the keys and channels
	 * @param reachability where every command is recorded
	 * @param claimWindowMillis how long a release keeps a lock it hands over until the
	 * new holder confirms it
	 */
	public RedisLockCommands(StringRedisTemplate redis, LockKeyspace keyspace, RedisReachability reachability,
			long claimWindowMillis) {
		this(redis, keyspace, reachability, claimWindowMillis, ReplicaAcknowledgement.NONE);
	}

	/**
	 * Creates the commands of one client whose grants replicas must acknowledge.
	 * @param redis the connection to Redis
	 * @param keyspace the names of the keys and channels
	 * @param reachability where every command is recorded
	 * @param claimWindowMillis how long a release keeps a lock it hands over until the
	 * new holder confirms it
	 * @param acknowledgement how many replicas must acknowledge each grant
	 */
	public RedisLockCommands(StringRedisTemplate redis, LockKeyspace keyspace, RedisReachability reachability,
			long claimWindowMillis, ReplicaAcknowledgement acknowledgement) {
		this.redis = redis;
		this.keyspace = keyspace;
		this.reachability = reachability;
		this.recorder = new ReachabilityRecorder(reachability);
		this.claimWindowMillis = claimWindowMillis;
		this.acknowledgement = acknowledgement;
	}

	/** Returns how many replicas must acknowledge each grant. */
	public ReplicaAcknowledgement acknowledgement() {
		return this.acknowledgement;
	}

	/** Returns where every command is recorded. */
	public RedisReachability reachability() {
		return this.reachability;
	}

	/** Returns the names of the keys and channels. */
	public LockKeyspace keyspace() {
		return this.keyspace;
	}

	/**
	 * Returns how long a release that hands a waiter with this lease the lock keeps it
	 * until the waiter confirms: the claim window, or the lease if shorter. The waiter's
	 * attempts store it in its place in the queue, so that the release uses the same
	 * figure.
	 */
	public long claimMillis(long leaseMillis) {
		return Math.min(leaseMillis, this.claimWindowMillis);
	}

	/**
	 * Tries to acquire a lock; a caller that gives a channel takes (or renews) a place in
	 * the lock's queue if the lock is held, so that a release hands it the lock.
	 * @param handOffChannel where to be told of a hand-over, or null to stay out of the
	 * queue; a release {@code SPUBLISH}es on a sharded channel of the keyspace, else
	 * {@code PUBLISH}es
	 * @param queueEntryTtlMillis how long the place stays valid unless renewed by another
	 * attempt
	 * @param block how many fencing tokens to reserve, 1 or more
	 * @param mayBeQueued whether an earlier attempt of the same token may have queued it
	 * @return the grant (with how many replicas acknowledged it, if any must), or the
	 * holder's remaining lease and the fencing counter
	 */
	public AcquireReply acquire(String key, String token, long leaseMillis, @Nullable String handOffChannel,
			long queueEntryTtlMillis, int block, boolean mayBeQueued) {
		Supplier<List<Long>> script = () -> this.redis.execute(LockScripts.ACQUIRE, keys(key), token,
				Long.toString(leaseMillis), (handOffChannel != null) ? handOffChannel : "",
				Long.toString(queueEntryTtlMillis), Integer.toString(block), mayBeQueued ? "1" : "0",
				Long.toString(claimMillis(leaseMillis)), publishCommand(handOffChannel));
		return AcquireReply.of(this.recorder
			.call(this.acknowledgement.isRequired() ? () -> this.acknowledgement.acquire(this.redis, script) : script));
	}

	private String publishCommand(@Nullable String handOffChannel) {
		return (handOffChannel != null && this.keyspace.isShardedChannel(handOffChannel)) ? "spublish" : "publish";
	}

	/**
	 * Releases a lock held with the token, handing it to the first valid waiter in its
	 * queue.
	 * @return what the release did
	 */
	public ReleaseOutcome release(String key, String token, long keepMillis) {
		return runRelease(key, token, keepMillis, false);
	}

	/**
	 * Takes a waiter that gives up out of the lock's queue, and releases the lock if a
	 * release handed it to the waiter in the meantime (handing it on to the next waiter).
	 * @return as {@link #release}
	 */
	public ReleaseOutcome leaveQueue(String key, String token) {
		return runRelease(key, token, 0, true);
	}

	private ReleaseOutcome runRelease(String key, String token, long keepMillis, boolean leavingQueue) {
		return ReleaseOutcome.of(this.recorder.call(() -> this.redis.execute(LockScripts.RELEASE, keys(key), token,
				Long.toString(keepMillis), leavingQueue ? "1" : "0")));
	}

	private List<String> keys(String key) {
		return List.of(key, this.keyspace.fenceKey(key), this.keyspace.queueKey(key), this.keyspace.waitersKey(key));
	}

	/**
	 * Renews the leases of a batch of locks, each only if it still holds its owner token.
	 * @param keys the Redis keys of the locks (one hash slot on a cluster)
	 * @param tokens the owner token of each key, in the same order
	 * @param leaseMillis the lease to extend them to
	 * @return per lock, whether its lease was renewed
	 */
	public boolean[] renew(List<String> keys, List<String> tokens, long leaseMillis) {
		return this.recorder.call(() -> renewBatch(keys, tokens, leaseMillis));
	}

	private boolean[] renewBatch(List<String> keys, List<String> tokens, long leaseMillis) {
		Object[] args = RenewScriptCodec.arguments(tokens, leaseMillis);
		List<Long> results = this.redis.execute(LockScripts.RENEW, keys, args);
		return RenewScriptCodec.renewed(results, keys.size());
	}

	/**
	 * Reads a lock's state without reading its owner token back.
	 * @param tokens the tokens this client holds the key with
	 * @return the key's time to live, and which of the tokens holds it
	 */
	public KeyInspection inspect(String key, List<String> tokens) {
		return KeyInspection
			.of(this.recorder.call(() -> this.redis.execute(LockScripts.INSPECT, List.of(key), tokens.toArray())));
	}

	/**
	 * Returns one slot of each master that serves slots, as the client's view of the
	 * cluster has them (a killed master keeps its slots there until the client learns of
	 * the promotion): a health check that locks a key in each of them reaches every
	 * master a lock may need. Empty unless Redis is a cluster.
	 * @return one slot per master
	 */
	public List<Integer> masterSlots() {
		if (!this.keyspace.isCluster()) {
			return List.of();
		}
		List<Integer> slots = this.redis.execute((RedisCallback<List<Integer>>) (connection) -> {
			List<Integer> firstSlots = new ArrayList<>();
			for (RedisClusterNode node : ((RedisClusterConnection) connection).clusterGetNodes()) {
				int[] served = node.getSlotRange().getSlotsArray();
				if (node.isMaster() && served.length > 0) {
					firstSlots.add(served[0]);
				}
			}
			return firstSlots;
		});
		return (slots != null) ? slots : List.of();
	}

	/**
	 * Makes sure Redis has every script, loading those it lacks.
	 * @return per script name, whether Redis already had it
	 */
	public Map<String, Boolean> loadScripts() {
		return ScriptLoader.loadScripts(this.redis);
	}

}
