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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;

/**
 * Threads of one process that each call a {@link SkippingJob} once on a key, started
 * together: what each call ended with ({@code ran}, {@code skipped} or the simple name of
 * its exception) and how long it took, and when the first call began, so that a fault can
 * be timed against the callers' deadline.
 */
final class SkipCallers implements AutoCloseable {

	/** The outcome of a call that returned {@code null}. */
	static final String SKIPPED = "skipped";

	private final ExecutorService threads;

	private final AtomicLong firstStart = new AtomicLong();

	private final List<CompletableFuture<Outcome>> calls = new ArrayList<>();

	/**
	 * Starts the calls.
	 * @param job the job to call
	 * @param key the key of every call
	 * @param count how many threads call
	 */
	SkipCallers(SkippingJob job, String key, int count) {
		this.threads = Executors.newFixedThreadPool(count);
		for (int i = 0; i < count; i++) {
			this.calls.add(CompletableFuture.supplyAsync(() -> call(job, key), this.threads));
		}
	}

	private Outcome call(SkippingJob job, String key) {
		long start = System.nanoTime();
		this.firstStart.compareAndSet(0, start);
		String outcome;
		try {
			String result = job.run(key);
			outcome = (result != null) ? result : SKIPPED;
		}
		catch (RuntimeException ex) {
			outcome = ex.getClass().getSimpleName();
		}
		return new Outcome(outcome, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
	}

	/**
	 * Returns when the first call began, waiting until one has.
	 * @return its {@link System#nanoTime()}
	 */
	long firstStart() {
		return await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(1))
			.until(this.firstStart::get, (start) -> start != 0);
	}

	/**
	 * Waits for every call to end.
	 * @return their outcomes
	 */
	List<Outcome> outcomes() {
		return this.calls.stream().map(CompletableFuture::join).toList();
	}

	static long count(List<Outcome> outcomes, String outcome) {
		return outcomes.stream().filter((call) -> call.outcome().equals(outcome)).count();
	}

	static long longestMillis(List<Outcome> outcomes) {
		return outcomes.stream().mapToLong(Outcome::millis).max().orElse(0);
	}

	@Override
	public void close() {
		this.threads.shutdownNow();
	}

	/**
	 * How one call ended.
	 *
	 * @param outcome {@code ran}, {@link #SKIPPED}, or the simple name of the exception
	 * @param millis how long the call took
	 */
	record Outcome(String outcome, long millis) {

		@Override
		public String toString() {
			return this.outcome + " " + this.millis + "ms";
		}

	}

}
