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
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 100,000 lock/unlock cycles with auto-renewal running (every ~670ms, and some locks held
 * until renewed) must leave no lock key behind and never renew a lock after its release.
 */
class RenewalStressTests {

	private static final int THREADS = 8;

	private static final int CYCLES_PER_THREAD = 12_500;

	@Test
	void hundredThousandCyclesWithRenewalLeaveNothingBehind() throws Exception {
		RecordingLockListener listener = new RecordingLockListener();
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(2), listener)) {
			AtomicInteger cycles = new AtomicInteger();
			ConcurrentRunner.run(THREADS, CYCLES_PER_THREAD, (thread) -> {
				int cycle = cycles.incrementAndGet();
				// Half the cycles contend on 16 shared keys, half use their own keys.
				String key = (cycle % 2 == 0) ? "stress:shared:" + (cycle % 16) : "stress:own:" + cycle;
				try (LockHandle handle = fixture.client.lock(key, LockOptions.renewing(Duration.ofSeconds(30)))) {
					if (cycle % 4000 == 0) {
						// Now and then hold until the renewal thread has extended this
						// very lock.
						RedisLockHandle held = (RedisLockHandle) handle;
						long acquired = held.confirmedSendNanos();
						await().atMost(Duration.ofSeconds(10)).until(() -> held.confirmedSendNanos() != acquired);
					}
				}
			});
			assertThat(cycles).hasValue(THREADS * CYCLES_PER_THREAD);
			assertThat(listener.acquired).hasValue(THREADS * CYCLES_PER_THREAD);
			assertThat(listener.released).hasValue(THREADS * CYCLES_PER_THREAD);
			assertThat(listener.lost).isEmpty();
			assertThat(fixture.client.renewer().renewalsOfReleasedLocks()).isZero();
			assertThat(fixture.client.renewer().size()).isZero();
			assertThat(listener.renewedLocks()).as("renewals happened during the run").isPositive();
			assertThat(lockKeysLeft(fixture)).isZero();
		}
	}

	private long lockKeysLeft(LockFixture fixture) {
		long left = 0;
		try (Cursor<String> keys = fixture.redis
			.scan(ScanOptions.scanOptions().match("stress:*").count(1000).build())) {
			while (keys.hasNext()) {
				keys.next();
				left++;
			}
		}
		return left;
	}

}
