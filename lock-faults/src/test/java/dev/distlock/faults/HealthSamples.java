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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The status of a health indicator, sampled every 100 ms on a thread of its own, each
 * sample with when it started and ended.
 */
final class HealthSamples {

	private final HealthIndicator indicator;

	private final List<Sample> samples = new CopyOnWriteArrayList<>();

	private Thread thread = new Thread(() -> {
	});

	HealthSamples(HealthIndicator indicator) {
		this.indicator = indicator;
	}

	void start(long from, Duration duration) {
		this.thread = new Thread(() -> {
			while (System.nanoTime() - from < duration.toNanos()) {
				long start = System.nanoTime();
				Status status = this.indicator.health().getStatus();
				this.samples.add(new Sample(start, System.nanoTime(), status));
				Pause.millis(100);
			}
		}, "health-samples");
		this.thread.start();
	}

	void join() throws InterruptedException {
		this.thread.join();
	}

	/** Whether every sample taken wholly between the two times, if any, was DOWN. */
	boolean allDownBetween(long from, long to) {
		return this.samples.stream()
			.filter((s) -> s.start() >= from && s.end() <= to)
			.allMatch((s) -> s.status().equals(Status.DOWN));
	}

	/** Whether a sample that started between the two times was DOWN. */
	boolean downStartedBetween(long from, long to) {
		return this.samples.stream()
			.anyMatch((s) -> s.start() >= from && s.start() < to && s.status().equals(Status.DOWN));
	}

	/** Whether a sample that started after the time was UP. */
	boolean upAfter(long time) {
		return this.samples.stream().anyMatch((s) -> s.start() > time && s.status().equals(Status.UP));
	}

	String describe(long kill, long promoted) {
		long firstUp = this.samples.stream()
			.filter((s) -> s.start() > promoted && s.status().equals(Status.UP))
			.mapToLong(Sample::start)
			.findFirst()
			.orElse(-1);
		return this.samples.stream()
			.filter((s) -> s.start() < promoted)
			.map((s) -> (s.start() - kill) / 1_000_000 + "+" + (s.end() - s.start()) / 1_000_000 + "ms:"
					+ s.status().getCode())
			.collect(Collectors.joining(", ",
					"samples from the kill to the promotion (" + (promoted - kill) / 1_000_000
							+ " ms after the kill): [",
					"]; first UP " + ((firstUp < 0) ? "never"
							: (firstUp - promoted) / 1_000_000 + " ms after the promotion")));
	}

	record Sample(long start, long end, Status status) {

	}

}
