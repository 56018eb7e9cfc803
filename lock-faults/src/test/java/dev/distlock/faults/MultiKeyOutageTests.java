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
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 4: a call on two keys of one slot ({@code waitTime = "3s"},
 * {@code spring.data.redis.timeout=2s}) takes the first and queues on the second, which
 * another application holds; Redis (AOF, {@code appendfsync always}) is killed 1.5 s in,
 * and restarted with its data once the call has ended. Through the annotation and through
 * {@link LockClient} alike, the call must end with {@link LockUnavailableException}
 * within the wait time and one command timeout (giving back the key it took must not add
 * a second timeout), and that key must be released once Redis is back, not stranded for
 * its 30 s lease. Controls: a key held by a client that never releases it stays locked
 * after the same restart (so the check can fail), and with Redis up the same call ends
 * with {@link dev.distlock.LockNotAcquiredException}, its first key free at once.
 */
class MultiKeyOutageTests {

	private static final long WAIT_MS = 3_000;

	private static final long BOUND_MS = WAIT_MS + 2_000 + 300;

	/** How soon after Redis is back the key taken must be free: far below its lease. */
	private static final long RELEASED_WITHIN_MS = 5_000;

	private static final String TIMEOUT = "spring.data.redis.timeout=2s";

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private RedisNode redis;

	private String taken;

	private String queued;

	private String stranded;

	@BeforeEach
	void start() {
		this.redis = RedisNode.start(Persistence.AOF_ALWAYS);
		String tag = "{multi:" + UUID.randomUUID() + "}";
		this.taken = tag + ":a";
		this.queued = tag + ":b";
		this.stranded = tag + ":c";
	}

	@AfterEach
	void stop() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
		this.redis.close();
	}

	@Test
	void throughTheAnnotation() {
		TwoKeyJob job = app(TwoKeyJob.class).getBean(TwoKeyJob.class);
		outageWithOneKeyTakenAndOneQueued("annotation", (first, second) -> job.run(first, second));
	}

	@Test
	void throughTheLockClient() {
		LockClient client = app().getBean(LockClient.class);
		LockOptions options = new LockOptions(Duration.ofMillis(WAIT_MS), Duration.ofSeconds(30));
		outageWithOneKeyTakenAndOneQueued("LockClient", (first, second) -> {
			try (LockHandle held = client.lock(List.of(first, second), options)) {
				return TwoKeyJob.RAN;
			}
		});
	}

	@Test
	void controlWithRedisUpTheCallIsNotAcquiredAndItsFirstKeyIsFreeAtOnce() {
		TwoKeyJob job = app(TwoKeyJob.class).getBean(TwoKeyJob.class);
		LockClient holder = app().getBean(LockClient.class);
		LockClient checker = app().getBean(LockClient.class);
		holder.lock(this.queued, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		String outcome = outcome(() -> job.run(this.taken, this.queued));
		long free = LockCalls.firstAcquisition(checker, this.taken,
				new LockOptions(Duration.ZERO, Duration.ofSeconds(5)), Duration.ofSeconds(2));
		Figures.record("several keys, control: Redis up", "second key held: %s; first key free again: %s", outcome,
				free > 0);
		assertThat(outcome).startsWith("LockNotAcquiredException");
		assertThat(free).as("first key acquired by another client").isPositive();
	}

	private void outageWithOneKeyTakenAndOneQueued(String path, BiFunction<String, String, String> call) {
		LockClient holder = app().getBean(LockClient.class);
		LockClient checker = app().getBean(LockClient.class);
		holder.lock(this.queued, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		holder.lock(this.stranded, new LockOptions(Duration.ZERO, Duration.ofSeconds(30)));
		CompletableFuture<String> outcome = CompletableFuture
			.supplyAsync(() -> outcome(() -> call.apply(this.taken, this.queued)));
		Pause.millis(1_500);
		this.redis.kill();
		String ended = outcome.join();
		long back = this.redis.restart();
		LockOptions zeroWait = new LockOptions(Duration.ZERO, Duration.ofSeconds(5));
		long takenFree = LockCalls.firstAcquisition(checker, this.taken, zeroWait,
				Duration.ofMillis(RELEASED_WITHIN_MS));
		long strandedFree = LockCalls.firstAcquisition(checker, this.stranded, zeroWait, Duration
			.ofNanos(Math.max(0, back + TimeUnit.MILLISECONDS.toNanos(RELEASED_WITHIN_MS) - System.nanoTime())));
		long elapsed = elapsed(ended);
		Figures.record("several keys, outage with one taken and one queued (" + path + ")",
				"call: %s (bound %d ms); key taken free %s after Redis was back; control, a key never released "
						+ "(30 s lease), within %d ms: %s",
				ended, BOUND_MS, describe(takenFree, back), RELEASED_WITHIN_MS, describe(strandedFree, back));
		assertThat(ended).as("outcome").startsWith("LockUnavailableException");
		assertThat(elapsed).as("call, ms").isLessThanOrEqualTo(BOUND_MS);
		assertThat(takenFree).as("key taken, free again after Redis was back").isPositive();
		assertThat(strandedFree).as("control: a key never released stays locked").isNegative();
	}

	private ConfigurableApplicationContext app(Class<?>... beans) {
		ConfigurableApplicationContext context = FaultApplication.start(LockApps.properties(this.redis.port(), TIMEOUT),
				beans);
		this.contexts.add(context);
		return context;
	}

	private static String outcome(Supplier<String> call) {
		long start = System.nanoTime();
		String outcome;
		try {
			outcome = call.get();
		}
		catch (RuntimeException ex) {
			outcome = ex.getClass().getSimpleName();
		}
		return outcome + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + "ms";
	}

	private static long elapsed(String outcome) {
		String millis = outcome.substring(outcome.lastIndexOf(' ') + 1);
		return Long.parseLong(millis.substring(0, millis.length() - 2));
	}

	private static String describe(long acquired, long back) {
		return (acquired > 0) ? TimeUnit.NANOSECONDS.toMillis(acquired - back) + " ms" : "not acquired";
	}

	/** A method locked on two keys, all or nothing, as the README shows it. */
	public static class TwoKeyJob {

		static final String RAN = "ran";

		@DistributedLock(keys = { "#first", "#second" }, waitTime = "3s", leaseTime = "30s")
		public String run(String first, String second) {
			return RAN;
		}

	}

}
