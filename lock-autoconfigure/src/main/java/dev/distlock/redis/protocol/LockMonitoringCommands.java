package dev.distlock.redis.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis commands that monitoring sends, one round trip each: inspecting a lock's key,
 * finding one slot of each master of a cluster, and checking the scripts. Failures are
 * thrown as Spring's {@code DataAccessException}s; inspections are recorded in the
 * client's {@link RedisReachability}.
 */
public final class LockMonitoringCommands {

	private final StringRedisTemplate redis;

	private final LockKeyspace keyspace;

	private final ReachabilityRecorder recorder;

	LockMonitoringCommands(StringRedisTemplate redis, LockKeyspace keyspace, ReachabilityRecorder recorder) {
		this.redis = redis;
		this.keyspace = keyspace;
		this.recorder = recorder;
	}

	/**
	 * Reads a lock's state without reading any owner token back: for a read-write lock or
	 * a semaphore, also its holders, permits and waiters.
	 * @param key the Redis key of the lock
	 * @param tokens the tokens this client holds the key with
	 * @return the key's time to live, and which of the tokens holds it
	 */
	public KeyInspection inspect(String key, List<String> tokens) {
		List<String> keys = List.of(key, this.keyspace.waitersKey(key), this.keyspace.queueKey(key));
		return KeyInspection
			.of(this.recorder.call(key, () -> this.redis.execute(LockScripts.INSPECT, keys, tokens.toArray())));
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
