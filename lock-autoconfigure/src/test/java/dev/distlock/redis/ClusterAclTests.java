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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.monitor.LockKeyState;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Redis ACL rule docs/cluster-and-sentinel.md gives for a Cluster is enough to lock,
 * wait, be handed a lock by a sharded message and pass the health check, through
 * Lettuce's cluster client (which reads the topology with {@code CLUSTER NODES}), and
 * keeps every key under the prefix. Redis does not replicate ACL users between cluster
 * nodes, so the rule is set on every node, as a user must.
 */
class ClusterAclTests {

	/**
	 * The rule docs/cluster-and-sentinel.md gives for an application on a Cluster whose
	 * distlock.key-prefix is "app:".
	 */
	static final String DOCUMENTED_RULE = "SETUSER app reset on >secret ~app:* &app:* +evalsha +eval "
			+ "+script|load +script|exists +ssubscribe +sunsubscribe +ping +get +set +del +exists +type +pexpire "
			+ "+pttl +time +hget +hset +hdel +rpush +lindex +lpop +lrem +spublish +cluster|nodes +lrange +zadd +zrange "
			+ "+zscore +zrem +zremrangebyscore";

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start();
		for (RedisServerProcess node : cluster.nodes()) {
			RedisAdminCommands.call(node, ("ACL " + DOCUMENTED_RULE).split(" "));
		}
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@Test
	void userWithTheDocumentedClusterRuleCanLockWaitAndBeHandedTheLock() throws Exception {
		LettuceConnectionFactory connectionFactory = connect("app", "secret");
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		RedisLockClient holderSide = RedisLockClient.builder(redis).keyPrefix("app:").clusterSlots(true).build();
		RedisLockClient waiterSide = RedisLockClient.builder(redis)
			.keyPrefix("app:")
			.clusterSlots(true)
			.releaseMessages(true)
			.build();
		ReleaseMessageWaiter waiter = waiterSide.releaseWaiter();
		try {
			holderSide.start();
			waiterSide.start();
			LockHandle held = holderSide.lock("sku:1", LockOptions.renewing(Duration.ZERO));
			CompletableFuture<LockHandle> next = CompletableFuture
				.supplyAsync(() -> waiterSide.lock("sku:1", LockOptions.renewing(Duration.ofSeconds(20))));
			// Queued only once the sharded subscription of the key's slot is confirmed.
			await().atMost(Duration.ofSeconds(15))
				.until(() -> keysOnEveryMaster().stream().anyMatch((key) -> key.contains(":queue:sku:1")));
			held.release();
			next.get(20, TimeUnit.SECONDS).release();
			assertThat(waiter.handOvers()).as("handed over by message").isEqualTo(1);
			Health health = new DistributedLockHealthIndicator(waiterSide.monitor()).health();
			assertThat(health.getStatus()).as(health::toString).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("locking", "ok");
			assertThat(keysOnEveryMaster()).as("every key under the prefix")
				.isNotEmpty()
				.allMatch((key) -> key.startsWith("app:"));
		}
		finally {
			holderSide.close();
			waiterSide.close();
			connectionFactory.destroy();
		}
	}

	@Test
	void userWithTheDocumentedClusterRuleCanReadWriteInspectAndBeHandedTheWriteLock() throws Exception {
		LettuceConnectionFactory connectionFactory = connect("app", "secret");
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		RedisLockClient holderSide = RedisLockClient.builder(redis).keyPrefix("app:").clusterSlots(true).build();
		RedisLockClient waiterSide = RedisLockClient.builder(redis)
			.keyPrefix("app:")
			.clusterSlots(true)
			.releaseMessages(true)
			.build();
		ReleaseMessageWaiter waiter = waiterSide.releaseWaiter();
		try {
			holderSide.start();
			waiterSide.start();
			LockHandle reader = holderSide.lock("catalogue",
					LockOptions.renewing(Duration.ZERO).withMode(LockMode.READ));
			CompletableFuture<LockHandle> writer = CompletableFuture.supplyAsync(
					() -> waiterSide.lock("catalogue",
							LockOptions.renewing(Duration.ofSeconds(20)).withMode(LockMode.WRITE)),
					(task) -> new Thread(task).start());
			await().atMost(Duration.ofSeconds(15))
				.until(() -> keysOnEveryMaster().stream().anyMatch((key) -> key.contains(":queue:catalogue")));
			LockKeyState state = holderSide.monitor().keyState("app:catalogue");
			assertThat(state.kind()).isEqualTo("read-write");
			assertThat(state.waiters()).isEqualTo(1);
			assertThat(state.holders()).singleElement().satisfies((holder) -> {
				assertThat(holder.kind()).isEqualTo("reader");
				assertThat(holder.heldByThisInstance()).isTrue();
			});
			reader.release();
			writer.get(20, TimeUnit.SECONDS).release();
			assertThat(waiter.handOvers()).as("the writer handed over by sharded message").isEqualTo(1);
		}
		finally {
			holderSide.close();
			waiterSide.close();
			connectionFactory.destroy();
		}
	}

	private static List<String> keysOnEveryMaster() {
		List<String> keys = new ArrayList<>();
		for (RedisServerProcess node : cluster.nodes()) {
			if (RedisAdminCommands.text(node, "INFO", "replication").contains("role:master")) {
				for (Object key : (List<?>) RedisAdminCommands.call(node, "KEYS", "*")) {
					keys.add((String) key);
				}
			}
		}
		return keys;
	}

	private static LettuceConnectionFactory connect(String username, String password) {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				Arrays.asList(cluster.clusterNodes().split(",")));
		configuration.setUsername(username);
		configuration.setPassword(password);
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(configuration,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		return connectionFactory;
	}

}
