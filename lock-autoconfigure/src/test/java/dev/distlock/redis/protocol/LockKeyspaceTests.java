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

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.InvalidLockKeyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every key and channel is under the prefix; lock keys cannot fall into distlock's own
 * namespace; on a cluster, a lock's own keys share its slot, and however many lock keys
 * there are, the counters stay few.
 */
class LockKeyspaceTests {

	/**
	 * The keyspace of a client without prefix on a single server, as the tests use it.
	 */
	static final LockKeyspace SINGLE = new LockKeyspace("", false, 1024);

	private static final LockKeyspace CLUSTER = new LockKeyspace("", true, 1024);

	@ParameterizedTest
	@ValueSource(strings = { "lock:sku:25", "{user:7}:lock", "a{b}c", "x{}y{z}", "{", "}", "plain" })
	void clusterOwnKeysAreInTheSameSlotAsTheLockKey(String lockKey) {
		assertThat(LockKeyspace.slot(CLUSTER.fenceKey(lockKey))).isEqualTo(LockKeyspace.slot(lockKey));
		assertThat(LockKeyspace.slot(CLUSTER.queueKey(lockKey))).isEqualTo(LockKeyspace.slot(lockKey));
		assertThat(LockKeyspace.slot(CLUSTER.waitersKey(lockKey))).isEqualTo(LockKeyspace.slot(lockKey));
	}

	@ParameterizedTest
	@ValueSource(strings = { "app:", "{app}:", "a}b:", "x{y}{z" })
	void clusterOwnKeysFollowTheLockKeyWhateverThePrefix(String prefix) {
		LockKeyspace keyspace = new LockKeyspace(prefix, true, 1024);
		for (String key : new String[] { "lock:sku:25", "{user:7}:lock", "{" }) {
			String lockKey = keyspace.lockKey(key);
			assertThat(LockKeyspace.slot(keyspace.fenceKey(lockKey))).isEqualTo(LockKeyspace.slot(lockKey));
			assertThat(LockKeyspace.slot(keyspace.queueKey(lockKey))).isEqualTo(LockKeyspace.slot(lockKey));
			assertThat(LockKeyspace.slot(keyspace.waitersKey(lockKey))).isEqualTo(LockKeyspace.slot(lockKey));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "app:", "{app}:", "a}b:", "x{y}{z" })
	void shardedReleaseChannelIsInTheSlotOfTheLocksItTellsAbout(String prefix) {
		LockKeyspace keyspace = new LockKeyspace(prefix, true, 1024);
		for (String key : new String[] { "lock:sku:25", "{user:7}:lock", "{", "plain" }) {
			int slot = ClusterSlotHashUtil.calculateSlot(keyspace.lockKey(key));
			String channel = keyspace.shardedReleaseChannel("c1", slot);
			assertThat(ClusterSlotHashUtil.calculateSlot(channel)).as(channel).isEqualTo(slot);
			assertThat(channel).startsWith(prefix + "distlock:").endsWith(":released:c1");
			assertThat(keyspace.isShardedChannel(channel)).as(channel).isTrue();
		}
		assertThat(keyspace.isShardedChannel(keyspace.releaseChannel("c1"))).isFalse();
	}

	@Test
	void everySlotHasItsOwnShardedReleaseChannel() {
		Set<String> channels = new HashSet<>();
		for (int slot = 0; slot < 16_384; slot++) {
			String channel = CLUSTER.shardedReleaseChannel("c1", slot);
			assertThat(ClusterSlotHashUtil.calculateSlot(channel)).as(channel).isEqualTo(slot);
			channels.add(channel);
		}
		assertThat(channels).hasSize(16_384);
		assertThat(CLUSTER.shardedReleaseChannel("c1", 0)).matches("distlock:\\{[^{}]+\\}:released:c1");
		assertThat(CLUSTER.shardedReleaseChannel("c2", 0)).as("one per client")
			.isNotEqualTo(CLUSTER.shardedReleaseChannel("c1", 0));
	}

	@ParameterizedTest
	@ValueSource(strings = { "app{", "app{}:", "{}" })
	void clusterPrefixThatOpensAnEmptyOrUnclosedHashTagIsRefused(String prefix) {
		assertThatExceptionOfType(DistributedLockConfigurationException.class)
			.isThrownBy(() -> new LockKeyspace(prefix, true, 1024))
			.withMessageContaining("distlock.key-prefix")
			.withMessageContaining("\"" + prefix + "\"")
			.withMessageContaining("close the tag");
		assertThat(new LockKeyspace(prefix, false, 1024).lockKey("k")).isEqualTo(prefix + "k");
	}

	@Test
	void everyKeyAndChannelStartsWithThePrefix() {
		LockKeyspace keyspace = new LockKeyspace("app:", false, 1024);
		String lockKey = keyspace.lockKey("lock:sku:25");
		assertThat(lockKey).isEqualTo("app:lock:sku:25");
		assertThat(keyspace.fenceKey(lockKey)).isEqualTo("app:distlock:fence");
		assertThat(keyspace.queueKey(lockKey)).isEqualTo("app:distlock:queue:lock:sku:25");
		assertThat(keyspace.waitersKey(lockKey)).isEqualTo("app:distlock:waiters:lock:sku:25");
		assertThat(keyspace.releaseChannel("c1")).isEqualTo("app:distlock:released:c1");
		assertThat(keyspace.healthKey("t1")).isEqualTo("app:distlock:health:t1");
		LockKeyspace cluster = new LockKeyspace("app:", true, 1024);
		assertThat(cluster.fenceKey(lockKey)).startsWith("app:distlock:{").endsWith("}:fence");
	}

	@ParameterizedTest
	@ValueSource(strings = { "distlock:fence", "distlock:queue:q2", "distlock:waiters:q2", "distlock:" })
	void keysInTheReservedNamespaceAreRefused(String key) {
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> SINGLE.lockKey(key))
			.withMessage("Lock key '" + key + "' is in the namespace \"distlock:\" that distlock keeps for its own "
					+ "keys. Choose a key that does not start with \"distlock:\".");
		assertThatExceptionOfType(InvalidLockKeyException.class)
			.isThrownBy(() -> new LockKeyspace("app:", false, 1024).lockKey(key));
	}

	@Test
	void keysLongerThanTheLimitAreRefusedWithAShortMessage() {
		LockKeyspace keyspace = new LockKeyspace("", false, 64);
		assertThat(keyspace.lockKey("k".repeat(64))).hasSize(64);
		String huge = "k".repeat(1024 * 1024);
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> keyspace.lockKey(huge))
			.withMessageStartingWith("Lock key '" + "k".repeat(200) + "'... (1048576 characters) has 1048576 "
					+ "characters, more than the 64 allowed. Use a shorter key")
			.withMessageContaining("distlock.max-key-length")
			.satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(400));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t\n" })
	void blankKeysAreRefused(String key) {
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> SINGLE.lockKey(key))
			.withMessageContaining("is blank");
	}

	@Test
	void queueKeysNameTheirLockWithoutRepeatingThePrefix() {
		assertThat(SINGLE.queueKey("lock:sku:25")).isEqualTo("distlock:queue:lock:sku:25");
		assertThat(SINGLE.waitersKey("lock:sku:25")).isEqualTo("distlock:waiters:lock:sku:25");
	}

	@Test
	void clusterCountersAreAtMostOnePerSlot() {
		Set<String> counters = new HashSet<>();
		for (int i = 0; i < 100_000; i++) {
			counters.add(CLUSTER.fenceKey("lock:sku:" + i));
		}
		assertThat(counters).hasSizeLessThanOrEqualTo(16_384);
	}

	@Test
	void singleServerUsesOneCounter() {
		assertThat(SINGLE.fenceKey("lock:sku:25")).isEqualTo(SINGLE.fenceKey("{user:7}:lock"))
			.isEqualTo("distlock:fence");
	}

}
