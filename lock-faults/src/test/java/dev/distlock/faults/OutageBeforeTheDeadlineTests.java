package dev.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23, finding 3: six threads of one process call an {@code onNotAcquired = SKIP}
 * method ({@code waitTime = "3s"}, {@code spring.data.redis.timeout=2s}) on a key held by
 * another process; one of them queues in Redis for the others, which wait behind it in
 * their process. Redis is killed shortly before their deadline, when none of their lock
 * commands has failed yet. Every call must end with {@link LockUnavailableException}
 * (handled by {@code onUnavailable}), none skipped, each within the wait time and one
 * command timeout. The control shows that the same six callers do skip when the key stays
 * held and Redis is up.
 */
class OutageBeforeTheDeadlineTests {

	private static final long WAIT_MS = 3_000;

	private static final long BOUND_MS = WAIT_MS + 2_000 + 300;

	private static final int CALLERS = 6;

	private final ExecutorService callers = Executors.newFixedThreadPool(CALLERS);

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

	@ParameterizedTest(name = "Redis killed {0} ms before the deadline")
	@ValueSource(longs = { 400, 250, 100 })
	void everyWaiterOfASkippingMethodGetsUnavailable(long beforeDeadlineMs) {
		String key = "lock:skip:" + UUID.randomUUID();
		SkippingJob job = job();
		holdElsewhere(key);
		AtomicLong firstStart = new AtomicLong();
		List<CompletableFuture<String>> outcomes = new ArrayList<>();
		for (int i = 0; i < CALLERS; i++) {
			outcomes.add(call(job, key, firstStart));
		}
		long killAt = firstStartOf(firstStart) + TimeUnit.MILLISECONDS.toNanos(WAIT_MS - beforeDeadlineMs);
		Pause.until(killAt);
		this.redis.kill();
		List<String> results = outcomes.stream().map(CompletableFuture::join).toList();
		long skipped = results.stream().filter((result) -> result.startsWith("skipped")).count();
		long unavailable = results.stream().filter((result) -> result.startsWith("LockUnavailableException")).count();
		long longest = results.stream().mapToLong(OutageBeforeTheDeadlineTests::elapsed).max().orElse(0);
		Figures.record("SKIP, Redis killed " + beforeDeadlineMs + " ms before the deadline",
				"%d waiting: %d skipped (null), %d LockUnavailableException, longest call %d ms (bound %d ms): %s",
				CALLERS, skipped, unavailable, longest, BOUND_MS, results);
		assertThat(skipped).as("calls that returned skipped").isZero();
		assertThat(unavailable).as("calls that got LockUnavailableException").isEqualTo(CALLERS);
		assertThat(longest).as("longest call, ms").isLessThanOrEqualTo(BOUND_MS);
	}

	@Test
	void controlTheSameWaitersSkipWhenTheKeyStaysHeldAndRedisIsUp() {
		String key = "lock:skip:" + UUID.randomUUID();
		SkippingJob job = job();
		holdElsewhere(key);
		AtomicLong firstStart = new AtomicLong();
		List<CompletableFuture<String>> outcomes = new ArrayList<>();
		for (int i = 0; i < CALLERS; i++) {
			outcomes.add(call(job, key, firstStart));
		}
		List<String> results = outcomes.stream().map(CompletableFuture::join).toList();
		Figures.record("SKIP before the deadline, control", "key held, Redis up, waitTime 3s: %s", results);
		assertThat(results).allMatch((result) -> result.startsWith("skipped"));
	}

	private SkippingJob job() {
		return this.apps
			.start(this.redis.port(), "spring.data.redis.timeout=2s", "faults.skip.wait-time=" + WAIT_MS + "ms")
			.getBean(SkippingJob.class);
	}

	private void holdElsewhere(String key) {
		LockClient holder = this.apps.client(this.redis.port(), "spring.data.redis.timeout=2s");
		LockHandle handle = holder.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		assertThat(handle.isLeaseLost()).isFalse();
	}

	private CompletableFuture<String> call(SkippingJob job, String key, AtomicLong firstStart) {
		return CompletableFuture.supplyAsync(() -> {
			long start = System.nanoTime();
			firstStart.compareAndSet(0, start);
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

	/** The start of the first call, once a caller thread has begun it. */
	private static long firstStartOf(AtomicLong firstStart) {
		return await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(1))
			.until(firstStart::get, (start) -> start != 0);
	}

	private static long elapsed(String result) {
		String millis = result.substring(result.lastIndexOf(' ') + 1);
		return Long.parseLong(millis.substring(0, millis.length() - 2));
	}

}
