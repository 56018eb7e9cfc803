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

package dev.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10, finding 7: callers of an {@code onNotAcquired = SKIP} method waiting on a
 * held key when Redis dies must get {@link LockUnavailableException} (handled by
 * {@code onUnavailable}), never a skip; and a call with {@code waitTime = 10s} and a 2 s
 * command timeout must end within 12 s. The control shows that the same callers do report
 * a skip when the key stays held and Redis is up.
 */
class OutageSkipTests {

	private static final long BOUND_MS = 10_000 + 2_000 + 300;

	private final ExecutorService callers = Executors.newFixedThreadPool(8);

	private RedisNode redis;

	private LockApps apps;

	@BeforeEach
	void start() {
		this.redis = RedisNode.start(Persistence.NONE);
		this.apps = new LockApps();
	}

	@AfterEach
	void stop() {
		this.callers.shutdownNow();
		this.apps.close();
		this.redis.close();
	}

	@Test
	void waitersOfASkippingMethodGetUnavailableWithinTheirBoundWhenRedisDies() {
		String key = "lock:skip:" + UUID.randomUUID();
		SkippingJob job = job("10s");
		holdElsewhere(key);
		List<CompletableFuture<String>> outcomes = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			outcomes.add(call(job, key));
		}
		Pause.millis(1000);
		this.redis.kill();
		for (int i = 0; i < 2; i++) {
			outcomes.add(call(job, key));
		}
		List<String> results = outcomes.stream().map(CompletableFuture::join).toList();
		long skipped = results.stream().filter((result) -> result.startsWith("skipped")).count();
		long unavailable = results.stream().filter((result) -> result.startsWith("LockUnavailableException")).count();
		long longest = results.stream().mapToLong(OutageSkipTests::elapsed).max().orElse(0);
		Figures.record("SKIP during an outage",
				"6 waiting + 2 during the outage: %d skipped (null), %d "
						+ "LockUnavailableException, longest call %d ms (bound %d ms): %s",
				skipped, unavailable, longest, BOUND_MS, results);
		assertThat(skipped).as("calls that returned skipped").isZero();
		assertThat(unavailable).as("calls that got LockUnavailableException").isEqualTo(results.size());
		assertThat(longest).as("longest call, ms").isLessThanOrEqualTo(BOUND_MS);
	}

	@Test
	void controlWaitersSkipWhenTheKeyStaysHeldAndRedisIsUp() {
		String key = "lock:skip:" + UUID.randomUUID();
		SkippingJob job = job("1s");
		holdElsewhere(key);
		List<String> results = List.of(call(job, key).join(), call(job, key).join());
		Figures.record("SKIP control", "key held, Redis up, waitTime 1s: %s", results);
		assertThat(results).allMatch((result) -> result.startsWith("skipped"));
	}

	private SkippingJob job(String waitTime) {
		return this.apps.start(this.redis.port(), "spring.data.redis.timeout=2s", "faults.skip.wait-time=" + waitTime)
			.getBean(SkippingJob.class);
	}

	private void holdElsewhere(String key) {
		LockClient holder = this.apps.client(this.redis.port(), "spring.data.redis.timeout=2s");
		LockHandle handle = holder.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		assertThat(handle.isLeaseLost()).isFalse();
	}

	private CompletableFuture<String> call(SkippingJob job, String key) {
		return CompletableFuture.supplyAsync(() -> {
			long start = System.nanoTime();
			String outcome;
			try {
				String result = job.run(key);
				outcome = (result != null) ? result : "skipped";
			}
			catch (RuntimeException ex) {
				outcome = ex.getClass().getSimpleName();
			}
			return outcome + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + "ms";
		}, this.callers);
	}

	private static long elapsed(String result) {
		String millis = result.substring(result.lastIndexOf(' ') + 1);
		return Long.parseLong(millis.substring(0, millis.length() - 2));
	}

}
