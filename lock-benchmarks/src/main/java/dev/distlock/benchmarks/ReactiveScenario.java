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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.sun.management.OperatingSystemMXBean;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * The reactive scenarios: for one {@link ReactiveLoad}, operations that each take the
 * lock on a key, do the {@link CountedWork} and release, driven without blocking a thread
 * by {@code Flux.flatMap} with the load's concurrency. One unmeasured block per contender
 * first, then blocks of a fixed length that rotate through the contenders. The floor runs
 * only where no two operations share a key.
 */
final class ReactiveScenario {

	private static final Duration BLOCK_TIMEOUT = Duration.ofMinutes(2);

	/**
	 * One contender's figures under one load.
	 *
	 * @param contender the contender's name
	 * @param load the load
	 * @param latency nanoseconds per operation (acquire, work, release)
	 * @param opsPerSecond measured operations divided by the time their blocks took
	 * @param processCpuNanos CPU time of the whole JVM per operation
	 * @param heldShare time inside the work over the blocks' time, per key
	 * @param overlaps operations that entered the work while another held the key
	 * @param lostIncrements increments missing from the counters in Redis
	 */
	record Result(String contender, ReactiveLoad load, Histogram latency, double opsPerSecond, double processCpuNanos,
			double heldShare, long overlaps, long lostIncrements) {
	}

	private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

	private final List<ReactiveContender> contenders;

	private final ReactiveStringRedisTemplate redis;

	private final ReactiveSizes sizes;

	ReactiveScenario(List<ReactiveContender> contenders, ReactiveStringRedisTemplate redis, ReactiveSizes sizes) {
		this.contenders = contenders;
		this.redis = redis;
		this.sizes = sizes;
	}

	List<Result> run(ReactiveLoad load, String prefix) {
		List<ReactiveContender> running = this.contenders.stream()
			.filter((contender) -> contender.isLock() || !load.isContended())
			.toList();
		Map<ReactiveContender, CountedWork> works = new LinkedHashMap<>();
		Map<ReactiveContender, Histogram> latencies = new LinkedHashMap<>();
		Map<ReactiveContender, long[]> totals = new LinkedHashMap<>();
		for (ReactiveContender contender : running) {
			CountedWork work = new CountedWork(this.redis, prefix + running.indexOf(contender) + ":", load.keys());
			works.put(contender, work);
			latencies.put(contender, new ConcurrentHistogram(3));
			totals.put(contender, new long[3]);
			block(contender, work, load, this.sizes.warmupMillis(), new ConcurrentHistogram(3));
		}
		System.gc();
		for (int round = 0; round < this.sizes.rounds(); round++) {
			for (ReactiveContender contender : Rotation.forRound(running, round)) {
				CountedWork work = works.get(contender);
				long[] total = totals.get(contender);
				long cpu = this.os.getProcessCpuTime();
				long held = work.heldNanos();
				total[0] += block(contender, work, load, this.sizes.blockMillis(), latencies.get(contender));
				total[1] += this.os.getProcessCpuTime() - cpu;
				total[2] += work.heldNanos() - held;
			}
		}
		List<Result> results = new ArrayList<>();
		for (ReactiveContender contender : running) {
			Histogram latency = latencies.get(contender);
			long ops = latency.getTotalCount();
			long[] total = totals.get(contender);
			CountedWork work = works.get(contender);
			results.add(new Result(contender.name(), load, latency, ops * 1e9 / total[0], (double) total[1] / ops,
					(double) total[2] / total[0] / Math.min(load.keys(), load.concurrency()), work.overlaps(),
					work.lostIncrements()));
		}
		return results;
	}

	/**
	 * Runs operations until the block's time is up, then waits for those in flight.
	 * @return the block's time in nanoseconds
	 */
	private long block(ReactiveContender contender, CountedWork work, ReactiveLoad load, int millis,
			Histogram latency) {
		long start = System.nanoTime();
		long stop = start + millis * 1_000_000L;
		Flux.<Long, Long>generate(() -> 0L, (next, sink) -> {
			sink.next(next);
			return next + 1;
		})
			.takeWhile((next) -> System.nanoTime() - stop < 0)
			.flatMap((next) -> operation(contender, work, (int) (next % load.keys()), latency), load.concurrency())
			.blockLast(BLOCK_TIMEOUT);
		return System.nanoTime() - start;
	}

	private static Mono<Long> operation(ReactiveContender contender, CountedWork work, int key, Histogram latency) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return contender.withLock(work.lockKey(key), work.increment(key))
				.doOnSuccess((value) -> latency.recordValue(System.nanoTime() - start));
		});
	}

}
