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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Hold intervals collected from every JVM of a scenario, and the counts that tell whether
 * the lock excluded: overlapping bodies (for shared locks: an exclusive hold overlapping
 * any other, or more holders at once than permits), fencing tokens out of order or
 * shared.
 */
public final class HoldLog {

	private final List<Hold> holds = new ArrayList<>();

	/**
	 * Adds the holds a worker wrote to a file.
	 * @param holder the worker
	 * @param file its hold file
	 * @return this log
	 */
	public HoldLog read(String holder, Path file) {
		try {
			Files.readAllLines(file)
				.stream()
				.filter((line) -> !line.isBlank())
				.forEach((line) -> this.holds.add(Hold.parse(holder, line)));
			return this;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Adds one hold.
	 * @param hold the hold
	 * @return this log
	 */
	public HoldLog add(Hold hold) {
		this.holds.add(hold);
		return this;
	}

	/**
	 * The holds so far.
	 * @return the holds
	 */
	public List<Hold> holds() {
		return List.copyOf(this.holds);
	}

	/**
	 * Counts holds that overlap an earlier-started hold, by any holder.
	 * @return the number of overlapping holds
	 */
	public int overlaps() {
		List<Hold> byStart = new ArrayList<>(this.holds);
		byStart.sort(Comparator.comparingLong(Hold::start));
		int overlaps = 0;
		long latestEnd = Long.MIN_VALUE;
		boolean first = true;
		for (Hold hold : byStart) {
			if (!first && hold.start() < latestEnd) {
				overlaps++;
			}
			latestEnd = first ? hold.end() : Math.max(latestEnd, hold.end());
			first = false;
		}
		return overlaps;
	}

	/**
	 * Counts the pairs of overlapping holds of which at least one is
	 * {@linkplain Hold#exclusive() exclusive}: a writer with a reader or another writer.
	 * Readers (and permit holders) may overlap each other.
	 * @return the number of conflicting pairs
	 */
	public int exclusiveOverlaps() {
		List<Hold> byStart = new ArrayList<>(this.holds);
		byStart.sort(Comparator.comparingLong(Hold::start));
		int conflicts = 0;
		for (int i = 0; i < byStart.size(); i++) {
			Hold earlier = byStart.get(i);
			for (int j = i + 1; j < byStart.size() && byStart.get(j).start() < earlier.end(); j++) {
				if (earlier.exclusive() || byStart.get(j).exclusive()) {
					conflicts++;
				}
			}
		}
		return conflicts;
	}

	/**
	 * The largest number of holds running at the same moment.
	 * @return the most concurrent holds
	 */
	public int maxConcurrent() {
		int current = 0;
		int max = 0;
		for (long[] event : startsAndEnds()) {
			current += (int) event[1];
			max = Math.max(max, current);
		}
		return max;
	}

	/**
	 * The first moment after an instant at which the given number of holds run at once.
	 * @param holders how many holds
	 * @param afterNanos the instant, by {@link System#nanoTime()}
	 * @return the moment, by {@link System#nanoTime()}, or {@code null} if never
	 */
	public @Nullable Long firstConcurrent(int holders, long afterNanos) {
		int current = 0;
		for (long[] event : startsAndEnds()) {
			current += (int) event[1];
			if (current >= holders && event[0] - afterNanos >= 0) {
				return event[0];
			}
		}
		return null;
	}

	/**
	 * Every start ({@code +1}) and end ({@code -1}) in time order; at the same instant an
	 * end comes before a start, so touching holds do not overlap.
	 */
	private List<long[]> startsAndEnds() {
		List<long[]> events = new ArrayList<>();
		for (Hold hold : this.holds) {
			events.add(new long[] { hold.start(), 1 });
			events.add(new long[] { hold.end(), -1 });
		}
		events.sort(Comparator.<long[]>comparingLong((event) -> event[0]).thenComparingLong((event) -> event[1]));
		return events;
	}

	/**
	 * The holds of one key, where holds of several keys are logged together.
	 * @param key the lock key
	 * @return a new log with those holds
	 */
	public HoldLog forKey(String key) {
		HoldLog log = new HoldLog();
		this.holds.stream().filter((hold) -> hold.key().equals(key)).forEach(log::add);
		return log;
	}

	/**
	 * Counts holds that started after an instant (a restart, say) with a token not above
	 * every token of the holds that started before it.
	 * @param instantNanos the instant, by {@link System#nanoTime()}
	 * @return how many tokens after it went back
	 */
	public int tokensAfterNotAboveBefore(long instantNanos) {
		long highestBefore = this.holds.stream()
			.filter((hold) -> hold.start() - instantNanos < 0)
			.mapToLong(Hold::token)
			.max()
			.orElse(Long.MIN_VALUE);
		return (int) this.holds.stream()
			.filter((hold) -> hold.start() - instantNanos >= 0 && hold.token() <= highestBefore)
			.count();
	}

	/**
	 * Counts holds whose token is not greater than the token of a hold that started
	 * before them.
	 * @return the number of tokens out of order
	 */
	public int tokensNotIncreasing() {
		return TokenOrder.notGreaterThanEarlier(
				this.holds.stream().sorted(Comparator.comparingLong(Hold::start)).mapToLong(Hold::token).toArray());
	}

	/**
	 * Counts holds that share their token with another hold.
	 * @return the number of holds beyond the first with each token
	 */
	public int duplicateTokens() {
		Map<Long, Integer> counts = new HashMap<>();
		this.holds.forEach((hold) -> counts.merge(hold.token(), 1, Integer::sum));
		return counts.values().stream().mapToInt((count) -> count - 1).sum();
	}

}
