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
import java.util.Arrays;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisClusterDeployment;

/**
 * Not a test: prints the median and 99th percentile of an uncontended acquire and release
 * on a test cluster (3 masters, 1 replica each, loopback), without and with one replica's
 * acknowledgement. Run by hand with the test class path: {@code java -cp ...
 * dev.distlock.redis.ClusterReplicaAcknowledgementCost [operations]}.
 */
final class ClusterReplicaAcknowledgementCost {

	private ClusterReplicaAcknowledgementCost() {
	}

	public static void main(String[] args) {
		int operations = (args.length > 0) ? Integer.parseInt(args[0]) : 5000;
		try (RedisClusterDeployment cluster = RedisClusterDeployment.start(3, 1)) {
			for (int round = 0; round < 2; round++) {
				for (int replicas : new int[] { 0, 1 }) {
					long[] nanos = run(cluster, replicas, operations);
					Arrays.sort(nanos);
					System.out.printf("round %d, cluster, min-replicas-acked=%d: %d ops, median %d us, p99 %d us%n",
							round, replicas, operations, nanos[nanos.length / 2] / 1000,
							nanos[(int) (nanos.length * 0.99)] / 1000);
				}
			}
		}
	}

	private static long[] run(RedisClusterDeployment cluster, int replicas, int operations) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(Arrays.asList(cluster.clusterNodes().split(","))));
		factory.afterPropertiesSet();
		factory.start();
		try (RedisLockClient client = RedisLockClient.builder(new StringRedisTemplate(factory))
			.clusterSlots(true)
			.replicaAcknowledgement(replicas, Duration.ofMillis(100))
			.build()) {
			LockOptions options = LockOptions.renewing(Duration.ZERO);
			String key = "cost:" + replicas;
			for (int i = 0; i < operations / 5; i++) {
				client.lock(key, options).close();
			}
			long[] nanos = new long[operations];
			for (int i = 0; i < operations; i++) {
				long start = System.nanoTime();
				try (LockHandle handle = client.lock(key, options)) {
					// Nothing: the round trips of the grant and the release are measured.
				}
				nanos[i] = System.nanoTime() - start;
			}
			return nanos;
		}
		finally {
			factory.destroy();
		}
	}

}
