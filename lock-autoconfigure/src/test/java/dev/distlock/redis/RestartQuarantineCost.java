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

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.testing.TestRedis;

/**
 * Not a test: prints the median and 99th percentile of an uncontended acquire and release
 * with the restart quarantine off and on (its counter present, as in steady operation),
 * alternating rounds, on a server of its own on loopback. Run by hand with the test class
 * path: {@code java -cp ... dev.distlock.redis.RestartQuarantineCost
 * [operations]}.
 */
final class RestartQuarantineCost {

	private RestartQuarantineCost() {
	}

	public static void main(String[] args) throws Exception {
		int operations = (args.length > 0) ? Integer.parseInt(args[0]) : 5000;
		try (RedisServerProcess server = RedisServerProcess.startOnFreePort()) {
			for (int round = 0; round < 3; round++) {
				for (Duration quarantine : new Duration[] { Duration.ZERO, Duration.ofSeconds(30) }) {
					long[] nanos = run(server, quarantine, operations);
					Arrays.sort(nanos);
					System.out.printf("round %d, quarantine %s: %d ops, median %d us, p99 %d us%n", round,
							quarantine.isZero() ? "off" : "on", operations, nanos[nanos.length / 2] / 1000,
							nanos[(int) (nanos.length * 0.99)] / 1000);
				}
			}
		}
	}

	private static long[] run(RedisServerProcess server, Duration quarantine, int operations) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory(server);
		try (RedisLockClient client = RedisLockClient.builder(TestRedis.template(factory))
			.restartQuarantine(quarantine)
			.build()) {
			// The counter exists, as in steady operation: no quarantine starts.
			TestRedis.template(factory).opsForValue().setIfAbsent("distlock:fence", "1");
			LockOptions options = LockOptions.renewing(Duration.ZERO);
			String key = TestRedis.uniqueKey("cost");
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
