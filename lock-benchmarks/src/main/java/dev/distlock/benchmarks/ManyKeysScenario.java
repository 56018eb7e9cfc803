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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

/**
 * Scenario 3: many threads of one JVM, each taking the lock on a key picked at random out
 * of many, with an empty critical section; collisions are rare but happen. Blocks of a
 * fixed length alternate the contenders.
 */
final class ManyKeysScenario {

	private static final Runnable NOTHING = () -> {
	};

	/**
	 * One contender's figures.
	 *
	 * @param contender the contender's name
	 * @param latency nanoseconds per acquire + release pair
	 * @param pairsPerSecond pairs divided by the time the blocks took
	 */
	record Result(String contender, Histogram latency, double pairsPerSecond) {
	}

	private final List<Contender> contenders;

	private final BenchSizes sizes;

	ManyKeysScenario(List<Contender> contenders, BenchSizes sizes) {
		this.contenders = contenders;
		this.sizes = sizes;
	}

	List<Result> run() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(this.sizes.manyKeysThreads());
		try {
			Map<Contender, Histogram> latencies = new LinkedHashMap<>();
			Map<Contender, Long> elapsed = new LinkedHashMap<>();
			for (Contender contender : this.contenders) {
				block(pool, contender, this.sizes.manyKeysBlockMillis() / 2, new Histogram(3));
				latencies.put(contender, new Histogram(3));
				elapsed.put(contender, 0L);
			}
			for (int round = 0; round < this.sizes.manyKeysRounds(); round++) {
				for (Contender contender : Rotation.forRound(this.contenders, round)) {
					long took = block(pool, contender, this.sizes.manyKeysBlockMillis(), latencies.get(contender));
					elapsed.merge(contender, took, Long::sum);
				}
			}
			List<Result> results = new ArrayList<>();
			for (Contender contender : this.contenders) {
				Histogram latency = latencies.get(contender);
				results
					.add(new Result(contender.name(), latency, latency.getTotalCount() * 1e9 / elapsed.get(contender)));
			}
			return results;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private long block(ExecutorService pool, Contender contender, int millis, Histogram latency) throws Exception {
		String prefix = "bench:s3:" + this.contenders.indexOf(contender) + ":";
		long start = System.nanoTime() + 50_000_000L;
		long stop = start + millis * 1_000_000L;
		List<Future<Histogram>> threads = new ArrayList<>();
		for (int t = 0; t < this.sizes.manyKeysThreads(); t++) {
			threads.add(pool.submit(() -> {
				Histogram mine = new Histogram(3);
				ThreadLocalRandom random = ThreadLocalRandom.current();
				LockSupport.parkNanos(start - System.nanoTime());
				while (System.nanoTime() - stop < 0) {
					String key = prefix + random.nextInt(this.sizes.manyKeys());
					long begin = System.nanoTime();
					contender.runLocked(key, NOTHING);
					mine.recordValue(System.nanoTime() - begin);
				}
				return mine;
			}));
		}
		for (Future<Histogram> thread : threads) {
			latency.add(thread.get());
		}
		return System.nanoTime() - start;
	}

	static String table(List<Result> results) {
		double floor = results.stream()
			.filter((result) -> result.contender().equals(PingFloor.NAME))
			.findFirst()
			.map(Result::pairsPerSecond)
			.orElse(Double.NaN);
		MarkdownTable table = new MarkdownTable("contender", "pairs", "pairs/s", "share of floor's pairs/s", "p50 µs",
				"p99 µs", "max ms");
		for (Result result : results) {
			table.row(result.contender(), result.latency().getTotalCount(),
					MarkdownTable.number(result.pairsPerSecond(), 0),
					MarkdownTable.number(result.pairsPerSecond() / floor, 2),
					MarkdownTable.micros(result.latency().getValueAtPercentile(50)),
					MarkdownTable.micros(result.latency().getValueAtPercentile(99)),
					MarkdownTable.number(result.latency().getMaxValue() / 1e6, 1));
		}
		return table.render();
	}

}
