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

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * What the holds of one contender's blocks in a kinds scenario show, accumulated over the
 * blocks: operations and their rate, acquire latency per access, and the checks made
 * while measuring: violations found by a {@link HoldSweep} of each block, torn reads and
 * lost increments.
 */
final class SharedHoldStats {

	/**
	 * One hold, as recorded by a worker thread.
	 *
	 * @param holder worker and thread, as {@code w<worker>-t<thread>}
	 * @param access what it took
	 * @param requested when it asked for the lock
	 * @param acquired when it got the lock
	 * @param end when its work under the lock ended
	 * @param torn whether a reader saw the counter change during its hold
	 */
	record Hold(String holder, Access access, long requested, long acquired, long end, boolean torn) {
	}

	private final String contender;

	private final int permits;

	private final Map<Access, Histogram> latencies = new EnumMap<>(Access.class);

	private final Map<String, Long> opsByHolder = new TreeMap<>();

	private long spanNanos;

	private long heldNanos;

	private long violations;

	private int maxHolders;

	private int maxReaders;

	private long tornReads;

	private long lostIncrements;

	SharedHoldStats(String contender, int permits) {
		this.contender = contender;
		this.permits = permits;
	}

	/**
	 * Counts a thread even if it never gets the lock, for the fewest operations per
	 * thread.
	 * @param holder the thread
	 */
	void registerHolder(String holder) {
		this.opsByHolder.putIfAbsent(holder, 0L);
	}

	/**
	 * Adds one block.
	 * @param block the holds of every thread of every worker
	 * @param counter the counter the writers incremented, which started at 0
	 */
	void add(List<Hold> block, long counter) {
		if (block.isEmpty()) {
			return;
		}
		long first = Long.MAX_VALUE;
		long last = Long.MIN_VALUE;
		long writes = 0;
		for (Hold hold : block) {
			this.latencies.computeIfAbsent(hold.access(), (access) -> new Histogram(3))
				.recordValue(hold.acquired() - hold.requested());
			this.opsByHolder.merge(hold.holder(), 1L, Long::sum);
			this.heldNanos += hold.end() - hold.acquired();
			first = Math.min(first, hold.requested());
			last = Math.max(last, hold.end());
			writes += (hold.access() == Access.WRITE) ? 1 : 0;
			this.tornReads += hold.torn() ? 1 : 0;
		}
		this.spanNanos += last - first;
		this.lostIncrements += writes - counter;
		HoldSweep sweep = HoldSweep.of(block, this.permits);
		this.violations += sweep.violations();
		this.maxHolders = Math.max(this.maxHolders, sweep.maxHolders());
		this.maxReaders = Math.max(this.maxReaders, sweep.maxReaders());
	}

	String contender() {
		return this.contender;
	}

	long ops() {
		return this.opsByHolder.values().stream().mapToLong(Long::longValue).sum();
	}

	/** Operations per second over the blocks' spans (first request to last end). */
	double opsPerSecond() {
		return (this.spanNanos > 0) ? ops() * 1e9 / this.spanNanos : 0;
	}

	/** Nanoseconds from asking for the lock to getting it, of one access. */
	Histogram latency(Access access) {
		return this.latencies.computeIfAbsent(access, (key) -> new Histogram(3));
	}

	/**
	 * Time held over the blocks' spans, per permit: 1.0 when every permit is always held.
	 */
	double permitsBusy() {
		return (this.spanNanos > 0) ? (double) this.heldNanos / this.spanNanos / this.permits : 0;
	}

	/** Holds that started while a hold they exclude was in progress; must be 0. */
	long violations() {
		return this.violations;
	}

	/** Most holds in progress at once, of any access. */
	int maxHolders() {
		return this.maxHolders;
	}

	/** Most readers in progress at once. */
	int maxReaders() {
		return this.maxReaders;
	}

	/** Reads that saw the counter change while they held the read lock; must be 0. */
	long tornReads() {
		return this.tornReads;
	}

	/** Writes minus the counter's final values; must be 0. */
	long lostIncrements() {
		return this.lostIncrements;
	}

	long minOpsPerHolder() {
		return this.opsByHolder.values().stream().mapToLong(Long::longValue).min().orElse(0);
	}

	long maxOpsPerHolder() {
		return this.opsByHolder.values().stream().mapToLong(Long::longValue).max().orElse(0);
	}

}
