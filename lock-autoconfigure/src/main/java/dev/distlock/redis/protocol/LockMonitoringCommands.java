/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.redis.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.distlock.redis.monitor.EvictionPolicy;

/**
 * The Redis commands that monitoring sends, one round trip each: inspecting a lock's key,
 * finding one slot of each master of a cluster, checking the scripts, and reading the
 * eviction policy. Failures are thrown as Spring's {@code DataAccessException}s;
 * inspections are recorded in the client's {@link RedisReachability}.
 */
public final class LockMonitoringCommands {

	private final StringRedisTemplate redis;

	private final LockKeyspace keyspace;

	private final RedisReachability reachability;

	LockMonitoringCommands(StringRedisTemplate redis, LockKeyspace keyspace, RedisReachability reachability) {
		this.redis = redis;
		this.keyspace = keyspace;
		this.reachability = reachability;
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
		long sent = this.reachability.sending(key);
		List<Long> reply;
		try {
			reply = this.redis.execute(LockScripts.INSPECT, keys, tokens.toArray());
		}
		catch (RuntimeException | Error ex) {
			this.reachability.failed(key, sent, ex);
			throw ex;
		}
		this.reachability.answered(key, sent);
		return KeyInspection.of(reply);
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
	 * Reads the eviction policy of Redis with {@code INFO memory}: of each master that
	 * serves slots, on a cluster. Not recorded in the client's {@link RedisReachability}:
	 * a user not allowed {@code INFO} may still lock.
	 * @return the policy of each server
	 */
	public List<EvictionPolicy> evictionPolicies() {
		List<EvictionPolicy> policies = this.redis.execute((RedisCallback<List<EvictionPolicy>>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				List<EvictionPolicy> masters = new ArrayList<>();
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster() && node.getSlotRange().getSlotsArray().length > 0) {
						masters.add(evictionPolicy(node.asString(), cluster.serverCommands().info(node, "memory")));
					}
				}
				return masters;
			}
			return List.of(evictionPolicy("", connection.serverCommands().info("memory")));
		});
		return (policies != null) ? policies : List.of();
	}

	/**
	 * Reads the policy from the reply to {@code INFO memory}.
	 * @param node the server, or empty
	 * @param reply the reply
	 * @return the policy; {@code maxmemory} 0 and policy {@code unknown} for fields the
	 * reply lacks
	 */
	private static EvictionPolicy evictionPolicy(String node, @Nullable Properties reply) {
		Properties info = (reply != null) ? reply : new Properties();
		String maxmemory = info.getProperty("maxmemory", "0").trim();
		long limit = maxmemory.matches("\\d+") ? Long.parseLong(maxmemory) : 0;
		return new EvictionPolicy(node, limit, info.getProperty("maxmemory_policy", "unknown").trim());
	}

	/**
	 * Makes sure Redis has every script, in one round trip when Redis has them all: those
	 * it lost (after a restart or {@code SCRIPT FLUSH}) are loaded again, and each one's
	 * SHA1 is checked against the one calls use.
	 * @return per script name, whether Redis already had it
	 */
	public Map<String, Boolean> loadScripts() {
		Map<String, Boolean> loaded = this.redis.execute((RedisCallback<Map<String, Boolean>>) (connection) -> {
			RedisScriptingCommands scripting = connection.scriptingCommands();
			String[] shas = LockScripts.ALL.values().stream().map(RedisScript::getSha1).toArray(String[]::new);
			List<Boolean> present = scripting.scriptExists(shas);
			Map<String, Boolean> result = new LinkedHashMap<>();
			int i = 0;
			for (Map.Entry<String, RedisScript<?>> script : LockScripts.ALL.entrySet()) {
				boolean exists = present != null && i < present.size() && Boolean.TRUE.equals(present.get(i));
				if (!exists) {
					load(scripting, script.getKey(), script.getValue());
				}
				result.put(script.getKey(), exists);
				i++;
			}
			return result;
		});
		return (loaded != null) ? loaded : Map.of();
	}

	private static void load(RedisScriptingCommands scripting, String name, RedisScript<?> script) {
		String sha = scripting.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8));
		if (!script.getSha1().equals(sha)) {
			throw new InvalidDataAccessResourceUsageException(
					"Redis loaded the " + name + " script as " + sha + ", expected " + script.getSha1());
		}
	}

}
