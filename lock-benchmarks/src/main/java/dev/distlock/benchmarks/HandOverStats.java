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

package dev.distlock.benchmarks;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

/**
 * What the hold intervals of one contender's blocks in scenario 2 show, accumulated over
 * the blocks: throughput, efficiency, hand-over gaps, overlaps, lost increments and how
 * evenly the threads got the lock.
 */
final class HandOverStats {

	/**
	 * One hold of the lock, as recorded under it by a worker thread.
	 *
	 * @param holder worker and thread, as {@code w<worker>-t<thread>}
	 * @param start when the critical section started
	 * @param end when the critical section ended
	 */
	record Hold(String holder, long start, long end) {
	}

	private final String contender;

	private final Histogram gaps = new Histogram(3);

	private final Histogram crossProcessGaps = new Histogram(3);

	private final Map<String, Long> acquisitionsByHolder = new TreeMap<>();

	private final Map<String, Long> commands = new TreeMap<>();

	private long holds;

	private long heldNanos;

	private long spanNanos;

	private long overlaps;

	private long lostIncrements;

	private long handOvers;

	private long sameThreadRetakes;

	private long sameProcessHandOvers;

	HandOverStats(String contender) {
		this.contender = contender;
	}

	/**
	 * Adds one block.
	 * @param block the holds of every thread of every worker
	 * @param counter the value of the shared counter after the block, which started at 0
	 */
	void add(List<Hold> block, long counter) {
		if (block.isEmpty()) {
			return;
		}
		block.sort(Comparator.comparingLong(Hold::start));
		long latestEnd = Long.MIN_VALUE;
		Hold previous = null;
		for (Hold hold : block) {
			this.acquisitionsByHolder.merge(hold.holder(), 1L, Long::sum);
			this.heldNanos += hold.end() - hold.start();
			if (previous != null) {
				this.handOvers++;
				if (hold.start() < latestEnd) {
					this.overlaps++;
				}
				else {
					this.gaps.recordValue(hold.start() - previous.end());
					if (!worker(hold).equals(worker(previous))) {
						this.crossProcessGaps.recordValue(hold.start() - previous.end());
					}
				}
				if (hold.holder().equals(previous.holder())) {
					this.sameThreadRetakes++;
				}
				else if (worker(hold).equals(worker(previous))) {
					this.sameProcessHandOvers++;
				}
			}
			latestEnd = Math.max(latestEnd, hold.end());
			previous = hold;
		}
		this.holds += block.size();
		this.spanNanos += latestEnd - block.get(0).start();
		this.lostIncrements += block.size() - counter;
	}

	/**
	 * Adds the Redis commands executed during one block ({@code INFO commandstats},
	 * commands run inside scripts included).
	 * @param delta calls by command
	 */
	void addCommands(Map<String, Long> delta) {
		delta.forEach((name, count) -> this.commands.merge(name, count, Long::sum));
	}

	/**
	 * The commands of the measured blocks per hold, the critical section's GET and SET
	 * included.
	 * @return the commands, with no split between sent and run in scripts
	 */
	PairCommands pairCommands() {
		PairCommands pairCommands = new PairCommands();
		pairCommands.addMeasured(this.commands, this.holds);
		return pairCommands;
	}

	/** {@code EVAL}/{@code EVALSHA} calls per hold: the lock's script round trips. */
	double scriptsPerHold() {
		long scripts = this.commands.getOrDefault("evalsha", 0L) + this.commands.getOrDefault("eval", 0L);
		return (double) scripts / Math.max(1, this.holds);
	}

	/**
	 * Every other command per hold, those run inside scripts included, without the
	 * critical section's own GET and SET and without keep-alive PINGs.
	 */
	double otherCommandsPerHold() {
		long other = 0;
		for (Map.Entry<String, Long> entry : this.commands.entrySet()) {
			String name = entry.getKey();
			if (!name.equals("evalsha") && !name.equals("eval") && !name.equals("ping")) {
				other += entry.getValue();
			}
		}
		return (double) (other - 2 * this.holds) / Math.max(1, this.holds);
	}

	private static String worker(Hold hold) {
		return hold.holder().substring(0, hold.holder().indexOf('-'));
	}

	void registerHolder(String holder) {
		this.acquisitionsByHolder.putIfAbsent(holder, 0L);
	}

	String contender() {
		return this.contender;
	}

	long holds() {
		return this.holds;
	}

	double throughput() {
		return this.holds * 1e9 / this.spanNanos;
	}

	/**
	 * Share of the time the lock was held: the sum of the holds over the span of the
	 * blocks.
	 */
	double busyShare() {
		return (double) this.heldNanos / this.spanNanos;
	}

	double meanHoldNanos() {
		return (double) this.heldNanos / this.holds;
	}

	Histogram gaps() {
		return this.gaps;
	}

	/** Gaps of the hand-overs from a thread of one worker JVM to a thread of another. */
	Histogram crossProcessGaps() {
		return this.crossProcessGaps;
	}

	long overlaps() {
		return this.overlaps;
	}

	long lostIncrements() {
		return this.lostIncrements;
	}

	long minAcquisitions() {
		return this.acquisitionsByHolder.values().stream().mapToLong(Long::longValue).min().orElse(0);
	}

	long maxAcquisitions() {
		return this.acquisitionsByHolder.values().stream().mapToLong(Long::longValue).max().orElse(0);
	}

	/** Hand-overs (consecutive holds) where the releasing thread took the lock again. */
	double sameThreadShare() {
		return (double) this.sameThreadRetakes / Math.max(1, this.handOvers);
	}

	/** Hand-overs to another thread of the same worker JVM. */
	double sameProcessShare() {
		return (double) this.sameProcessHandOvers / Math.max(1, this.handOvers);
	}

}
