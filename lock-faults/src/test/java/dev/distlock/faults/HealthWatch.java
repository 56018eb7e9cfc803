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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Asks a health indicator every 50 ms on a thread of its own and records each answer:
 * when it was asked, when it answered, and the status.
 */
final class HealthWatch implements AutoCloseable {

	/**
	 * One answer of the indicator.
	 *
	 * @param asked {@link System#nanoTime()} when it was asked
	 * @param answered when it answered
	 * @param status the status
	 */
	record Sample(long asked, long answered, Status status) {

	}

	private final List<Sample> samples = new CopyOnWriteArrayList<>();

	private final Thread thread;

	private volatile boolean stopped;

	HealthWatch(HealthIndicator indicator) {
		this.thread = new Thread(() -> {
			while (!this.stopped) {
				long asked = System.nanoTime();
				Status status = indicator.health().getStatus();
				this.samples.add(new Sample(asked, System.nanoTime(), status));
				Pause.millis(50);
			}
		}, "health-watch");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * The answers so far.
	 * @return the samples
	 */
	List<Sample> samples() {
		return new ArrayList<>(this.samples);
	}

	/**
	 * When the first answer with the status was given after a moment (to a question asked
	 * before or after it).
	 * @param status the status
	 * @param after {@link System#nanoTime()} of the moment
	 * @return when it was answered, {@code -1} if it was not
	 */
	long firstAnswered(Status status, long after) {
		return this.samples.stream()
			.filter((sample) -> sample.answered() - after >= 0 && sample.status().equals(status))
			.mapToLong(Sample::answered)
			.findFirst()
			.orElse(-1);
	}

	/**
	 * Whether every answer to a question asked and answered between the two times, if
	 * any, was DOWN.
	 */
	boolean allDownBetween(long from, long to) {
		return this.samples.stream()
			.filter((s) -> s.asked() - from >= 0 && to - s.answered() >= 0)
			.allMatch((s) -> s.status().equals(Status.DOWN));
	}

	/** Whether the answer to a question asked between the two times was DOWN. */
	boolean downAskedBetween(long from, long to) {
		return this.samples.stream()
			.anyMatch((s) -> s.asked() - from >= 0 && to - s.asked() > 0 && s.status().equals(Status.DOWN));
	}

	/**
	 * Describes the answers to the questions asked between a kill and a promotion, in ms
	 * after the kill, and when health was first UP after the promotion.
	 * @param kill {@link System#nanoTime()} of the kill
	 * @param promoted that of the promotion
	 * @return the description
	 */
	String describe(long kill, long promoted) {
		long firstUp = this.samples.stream()
			.filter((s) -> s.asked() - promoted > 0 && s.status().equals(Status.UP))
			.mapToLong(Sample::asked)
			.findFirst()
			.orElse(-1);
		return this.samples.stream()
			.filter((s) -> s.asked() - kill >= 0 && promoted - s.asked() > 0)
			.map((s) -> (s.asked() - kill) / 1_000_000 + "+" + (s.answered() - s.asked()) / 1_000_000 + "ms:"
					+ s.status().getCode())
			.collect(Collectors.joining(", ",
					"samples from the kill to the promotion (" + (promoted - kill) / 1_000_000
							+ " ms after the kill): [",
					"]; first UP " + ((firstUp < 0) ? "never"
							: (firstUp - promoted) / 1_000_000 + " ms after the promotion")));
	}

	@Override
	public void close() {
		this.stopped = true;
	}

}
