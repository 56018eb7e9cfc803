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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Issue 25, item 7: a majority of the RedLock nodes (2 of 3, 3 of 5) killed while callers
 * of a {@code @DistributedLock(onNotAcquired = SKIP)} method wait on a key another
 * instance holds, in an application with {@code distlock.store=redlock}: every caller
 * gets {@link LockUnavailableException}, none returns as skipped, each within a node
 * timeout plus a slack of the outage rather than at the end of its 10 s wait; the
 * {@link LockClient} of the application fails the same way; once the nodes are back, the
 * method runs. The control shows the same callers do skip when the key stays held and the
 * nodes are up.
 */
class RedLockMajorityLostSkipTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(50);

	/** For the random pause between attempts (up to 30 ms) and scheduling under load. */
	private static final long BOUND_AFTER_OUTAGE_MS = NODE_TIMEOUT.toMillis() + 30 + 400;

	private final ExecutorService callers = Executors.newFixedThreadPool(8);

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private RedLockFaultNodes nodes;

	@AfterEach
	void stop() {
		this.callers.shutdownNow();
		this.contexts.forEach(ConfigurableApplicationContext::close);
		if (this.nodes != null) {
			this.nodes.close();
		}
	}

	@ParameterizedTest(name = "{0} nodes")
	@ValueSource(ints = { 3, 5 })
	void waitersOfASkippingMethodGetUnavailableWhenAMajorityIsLostAndRunWhenItReturns(int count) {
		this.nodes = RedLockFaultNodes.start(count);
		int majority = this.nodes.majority();
		String key = "redlock:skip:" + UUID.randomUUID();
		ConfigurableApplicationContext app = app("10s");
		SkippingJob job = app.getBean(SkippingJob.class);
		LockHandle elsewhere = this.nodes.client(NODE_TIMEOUT)
			.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		List<CompletableFuture<Call>> outcomes = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			outcomes.add(call(job, key));
		}
		Pause.millis(1000);
		// Node 0 stays: the application's own Redis connection goes to it.
		for (int i = 1; i < majority; i++) {
			this.nodes.node(i).kill();
		}
		long outage = this.nodes.node(majority).kill();
		for (int i = 0; i < 2; i++) {
			outcomes.add(call(job, key));
		}
		List<Call> results = outcomes.stream().map(CompletableFuture::join).toList();
		LockClient client = app.getBean(LockClient.class);
		long clientStart = System.nanoTime();
		Throwable clientFailure = failure(() -> client.tryLock(key + ":client", LockOptions.renewing(Duration.ZERO)));
		long clientMs = (System.nanoTime() - clientStart) / 1_000_000;
		long skipped = results.stream().filter((result) -> result.outcome().equals("skipped")).count();
		long unavailable = results.stream()
			.filter((result) -> result.outcome().equals("LockUnavailableException"))
			.count();
		long latestAfterOutageMs = results.stream().mapToLong((result) -> result.ended() - outage).max().orElse(0)
				/ 1_000_000;
		// Recovery: the other instance's hold ends (its release reaches the nodes left
		// only), the
		// nodes come back, and the method runs.
		failure(elsewhere::release);
		long back = 0;
		for (int i = 1; i <= majority; i++) {
			back = this.nodes.node(i).restart();
		}
		String ran = null;
		long deadline = back + Duration.ofSeconds(10).toNanos();
		while (!SkippingJob.RAN.equals(ran) && System.nanoTime() - deadline < 0) {
			ran = call(job, key).join().outcome();
			if (!SkippingJob.RAN.equals(ran)) {
				Pause.millis(20);
			}
		}
		long recoveredMs = (System.nanoTime() - back) / 1_000_000;
		Figures.record("redlock majority lost (" + majority + " of " + count + ") under SKIP",
				"6 waiting + 2 during the outage: %d skipped (null), %d LockUnavailableException, the last ended "
						+ "%d ms after the outage began (bound %d ms, wait time 10000 ms); LockClient.tryLock: %s "
						+ "after %d ms; the method ran again %d ms after the nodes returned: %s",
				skipped, unavailable, latestAfterOutageMs, BOUND_AFTER_OUTAGE_MS,
				(clientFailure instanceof LockUnavailableException) ? "LockUnavailableException"
						: String.valueOf(clientFailure),
				clientMs, recoveredMs, results);
		assertThat(skipped).as("calls that returned skipped").isZero();
		assertThat(unavailable).as("calls that got LockUnavailableException").isEqualTo(results.size());
		assertThat(latestAfterOutageMs).as("last call's end after the outage began, ms")
			.isLessThanOrEqualTo(BOUND_AFTER_OUTAGE_MS);
		assertThat(clientFailure).as("LockClient.tryLock without a majority")
			.isInstanceOf(LockUnavailableException.class);
		assertThat(ran).as("the method once the nodes are back").isEqualTo(SkippingJob.RAN);
	}

	@ParameterizedTest(name = "{0} nodes")
	@ValueSource(ints = { 3, 5 })
	void lockClientFailsClosedWithoutAMajorityWhateverItsWaitTime(int count) {
		this.nodes = RedLockFaultNodes.start(count);
		LockClient client = app("10s").getBean(LockClient.class);
		// Nodes 0, 2 (and 4): a majority.
		for (int i = 0; i < count; i += 2) {
			this.nodes.node(i).kill();
		}
		long start = System.nanoTime();
		assertThatExceptionOfType(LockUnavailableException.class)
			.isThrownBy(() -> client.lock("redlock:client:" + UUID.randomUUID(),
					new LockOptions(Duration.ofSeconds(10), Duration.ofSeconds(10))))
			.withMessageContaining("distlock.redlock.nodes");
		long elapsedMs = (System.nanoTime() - start) / 1_000_000;
		Figures.record("redlock majority lost (" + this.nodes.majority() + " of " + count
				+ "), LockClient.lock with a 10 s wait", "LockUnavailableException after %d ms", elapsedMs);
		assertThat(elapsedMs).as("ms until the failure").isLessThanOrEqualTo(BOUND_AFTER_OUTAGE_MS);
	}

	@Test
	void controlWaitersSkipWhenTheKeyStaysHeldAndTheNodesAreUp() {
		this.nodes = RedLockFaultNodes.start(3);
		String key = "redlock:skip:" + UUID.randomUUID();
		SkippingJob job = app("1s").getBean(SkippingJob.class);
		this.nodes.client(NODE_TIMEOUT).lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		List<Call> results = List.of(call(job, key).join(), call(job, key).join());
		Figures.record("redlock SKIP control", "key held, nodes up, waitTime 1s: %s", results);
		assertThat(results).allMatch((result) -> result.outcome().equals("skipped"));
	}

	private ConfigurableApplicationContext app(String waitTime) {
		ConfigurableApplicationContext context = FaultApplication
			.start(this.nodes.properties(this.nodes.node(0).port(), NODE_TIMEOUT, "faults.skip.wait-time=" + waitTime));
		this.contexts.add(context);
		return context;
	}

	private CompletableFuture<Call> call(SkippingJob job, String key) {
		return CompletableFuture.supplyAsync(() -> {
			long start = System.nanoTime();
			String outcome;
			try {
				String result = job.run(key);
				outcome = (result != null) ? result : "skipped";
			}
			catch (LockUnavailableException ex) {
				// RedLock's own subclass names the nodes: counted as what callers catch.
				outcome = "LockUnavailableException";
			}
			catch (RuntimeException ex) {
				outcome = ex.getClass().getSimpleName();
			}
			return new Call(outcome, start, System.nanoTime());
		}, this.callers);
	}

	private static Throwable failure(Runnable call) {
		try {
			call.run();
			return null;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	/**
	 * One call's outcome ({@code skipped}, {@code ran} or the exception's name) and
	 * times.
	 */
	private record Call(String outcome, long started, long ended) {

		@Override
		public String toString() {
			return this.outcome + " " + (this.ended - this.started) / 1_000_000 + "ms";
		}

	}

}
