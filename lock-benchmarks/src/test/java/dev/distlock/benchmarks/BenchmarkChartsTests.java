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

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.imageio.ImageIO;

import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.ui.Layer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.distlock.benchmarks.BenchmarkCharts.Chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link BenchmarkCharts} draws what the tables say: each chart's dataset holds the
 * table's figures per contender, the floor is a marker rather than a bar, and the PNGs it
 * writes are images of the expected size. The results here are in the form
 * {@code ./bench/run} prints them, cut down to a few contenders.
 */
class BenchmarkChartsTests {

	private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	private static final String RESULTS = """
			## Environment

			| what | value |
			| ---- | ----- |
			| CPUs (nproc) | 2 |

			## 1. Uncontended: one thread, acquire + release

			| contender                       | keys     | pairs | p50 µs | p99 µs | pairs/s | p50 / floor | caller CPU µs/pair | JVM CPU µs/pair |
			| ------------------------------- | -------- | ----- | ------ | ------ | ------- | ----------- | ------------------ | --------------- |
			| floor: 2×PING                   | same     | 20000 | 135.4  | 272.4  | 6,958   | 1.00        | 29.6               | 115.0           |
			| distlock client                 | same     | 20000 | 181.4  | 398.3  | 5,070   | 1.34        | 43.0               | 143.5           |
			| Redisson RLock                  | same     | 20000 | 286.0  | 651.8  | 3,170   | 2.11        | 49.3               | 269.0           |
			| floor: 2×PING                   | distinct | 20000 | 144.1  | 309.0  | 6,338   | 1.00        | 32.2               | 126.0           |
			| distlock client                 | distinct | 20000 | 205.4  | 386.8  | 4,627   | 1.43        | 47.5               | 150.5           |
			| Redisson RLock                  | distinct | 20000 | 289.8  | 770.6  | 3,072   | 2.01        | 50.8               | 268.5           |

			Annotated-method overhead over the programmatic client:

			| keys     | client p50 µs | annotated p50 µs | overhead p50 µs | overhead mean µs |
			| -------- | ------------- | ---------------- | --------------- | ---------------- |
			| same     | 181.4         | 197.1            | 15.7            | 11.8             |

			## 2. Contended: one key, 2 JVMs × 4 threads, 1.0 ms critical section

			| contender       | holds | holds/s | efficiency | mean hold ms | lock busy | gap p50 µs | gap mean µs | gap p99 µs | gap max µs | gap p50 / floor | gap p50 across JVMs µs | overlaps | lost increments | min/max per thread | re-taken by releaser | handed within JVM | scripts/hold | other commands/hold |
			| --------------- | ----- | ------- | ---------- | ------------ | --------- | ---------- | ----------- | ---------- | ---------- | --------------- | ---------------------- | -------- | --------------- | ------------------ | -------------------- | ----------------- | ------------ | ------------------- |
			| distlock client | 10032 | 832     | 0.83       | 1.114        | 0.93      | 40.1       | 87.8        | 1188.9     | 6279.2     | 0.23            | 734.2                  | 0        | 0               | 1243/1267 = 0.98   | 0.0 %                | 96.8 %            | 0.07         | 0.52                |
			| Redisson RLock  | 4391  | 362     | 0.36       | 1.356        | 0.49      | 981.0      | 1411.3      | 7135.2     | 24231.9    | 5.66            | 1030.7                 | 0        | 0               | 512/589 = 0.87     | 37.5 %               | 37.8 %            | 4.61         | 17.83               |

			Floor for the gap ratio: 2×PING p50 measured between the blocks, 173.2 µs

			## 3. Many keys: 16 threads over 1000 keys

			| contender       | pairs  | pairs/s | share of floor's pairs/s | p50 µs | p99 µs | max ms |
			| --------------- | ------ | ------- | ------------------------ | ------ | ------ | ------ |
			| floor: 2×PING   | 130554 | 21,735  | 1.00                     | 688.1  | 1550.3 | 8.7    |
			| distlock client | 103954 | 17,302  | 0.80                     | 871.4  | 1977.3 | 12.6   |
			| Redisson RLock  | 31911  | 5,300   | 0.24                     | 2697.2 | 8200.2 | 52.3   |

			## 4. Held locks: 10000 held, 45 s window, 5 churn cycles, 30 s window

			| contender       | lease   | acquire all s | keys held | round trips/s | per 100 locks per 10 s | commands/s (commandstats) | after churn: round trips/s | after churn: per 100 locks per 10 s | threads idle → held → after churn | heap MB idle → held | keys left after release |
			| --------------- | ------- | ------------- | --------- | ------------- | ---------------------- | ------------------------- | -------------------------- | ----------------------------------- | --------------------------------- | ------------------- | ----------------------- |
			| distlock client | renewed | 4.2           | 10001     | 8.9           | 0.89                   | 1,786.7                   | 10.0                       | 1.00                                | 11 → 11 → 11                      | 18.2 → 23.9         | 1                       |
			| Redisson RLock  | watchdog| 3.4           | 10000     | 17.8          | 1.78                   | 3,573.9                   | 70.0                       | 7.00                                | 59 → 59 → 59                      | 20.2 → 28.7         | 0                       |

			Run took 653 s; load average at the end: 1.28 1.41 1.52 3/166 32079
			""";

	private static final String KINDS_AND_REACTIVE = """
			## Kinds 1. Read-mostly: one key, 90 % reads, 2 JVMs × 6 threads, 1.0 ms under the lock

			| contender               | ops   | ops/s | reads | writes | read p50 µs | read p99 µs | write p50 µs | write p99 µs | max readers at once | violations | torn reads | lost increments | min/max per thread |
			| ----------------------- | ----- | ----- | ----- | ------ | ----------- | ----------- | ------------ | ------------ | ------------------- | ---------- | ---------- | --------------- | ------------------ |
			| distlock LockClient     | 10217 | 843   | 9169  | 1048   | 6516.7      | 38928.4     | 11214.8      | 43483.1      | 12                  | 0          | 0          | 0               | 844/868 = 0.97     |
			| Redisson RReadWriteLock | 6074  | 144   | 5444  | 630    | 763.9       | 30998.5     | 107348.0     | 892862.5     | 10                  | 0          | 0          | 0               | 325/804 = 0.40     |

			## Kinds 2. Permits: one semaphore of 5 permits, 2 JVMs × 6 threads, 1.0 ms under the lock

			| contender           | ops   | ops/s | p50 µs | p99 µs  | max ms | permits busy | max holders at once | violations | min/max per thread |
			| ------------------- | ----- | ----- | ------ | ------- | ------ | ------------ | ------------------- | ---------- | ------------------ |
			| distlock LockClient | 30405 | 2,528 | 2514.9 | 8757.2  | 27.4   | 0.58         | 5                   | 0          | 2519/2540 = 0.99   |
			| Redisson RSemaphore | 28247 | 2,345 | 1826.8 | 18776.1 | 69.7   | 0.54         | 5                   | 0          | 2322/2401 = 0.97   |

			## Reactive 1. Uncontended: 10000 keys, 1 operation in flight

			| contender                   | ops   | ops/s | p50 µs | p99 µs | max ms | p50 / floor | share in work | JVM CPU µs/op | overlaps | lost increments |
			| --------------------------- | ----- | ----- | ------ | ------ | ------ | ----------- | ------------- | ------------- | -------- | --------------- |
			| floor: 2×PING, reactive     | 43710 | 3,642 | 280.1  | 538.1  | 7.4    | 1.00        | 0.51          | 172.3         | 0        | 0               |
			| distlock ReactiveLockClient | 29379 | 2,447 | 396.5  | 791.0  | 12.5   | 1.42        | 0.41          | 270.3         | 0        | 0               |

			## Reactive 2. Contended: 4 keys, 64 operations in flight

			| contender                   | ops   | ops/s | p50 µs  | p99 µs   | max ms | p50 / floor | share in work | JVM CPU µs/op | overlaps | lost increments |
			| --------------------------- | ----- | ----- | ------- | -------- | ------ | ----------- | ------------- | ------------- | -------- | --------------- |
			| distlock ReactiveLockClient | 53876 | 4,462 | 13918.2 | 23396.4  | 36.3   | –           | 0.68          | 217.9         | 0        | 0               |
			""";

	/**
	 * Scenarios 1 to 3 of {@link #RESULTS} as runs print them since they count Redis
	 * commands: a column more, and a table of commands per pair under the first.
	 */
	private static final String RESULTS_WITH_COMMANDS = """
			## 1. Uncontended: one thread, acquire + release

			| contender                       | keys     | pairs | p50 µs | p99 µs | pairs/s | p50 / floor | caller CPU µs/pair | JVM CPU µs/pair | Redis cmds/pair |
			| ------------------------------- | -------- | ----- | ------ | ------ | ------- | ----------- | ------------------ | --------------- | --------------- |
			| floor: 2×PING                   | same     | 20000 | 135.4  | 272.4  | 6,958   | 1.00        | 29.6               | 115.0           | 2.00            |
			| distlock client                 | same     | 20000 | 181.4  | 398.3  | 5,070   | 1.34        | 43.0               | 143.5           | 5.00            |
			| Redisson RLock                  | same     | 20000 | 286.0  | 651.8  | 3,170   | 2.11        | 49.3               | 269.0           | 12.00           |
			| floor: 2×PING                   | distinct | 20000 | 144.1  | 309.0  | 6,338   | 1.00        | 32.2               | 126.0           | 2.00            |
			| distlock client                 | distinct | 20000 | 205.4  | 386.8  | 4,627   | 1.43        | 47.5               | 150.5           | 5.00            |
			| Redisson RLock                  | distinct | 20000 | 289.8  | 770.6  | 3,072   | 2.01        | 50.8               | 268.5           | 12.00           |

			Annotated-method overhead over the programmatic client:

			| keys     | client p50 µs | annotated p50 µs | overhead p50 µs | overhead mean µs |
			| -------- | ------------- | ---------------- | --------------- | ---------------- |
			| same     | 181.4         | 197.1            | 15.7            | 11.8             |

			Redis commands per pair (INFO commandstats): calls are every command the server counted during the measured pairs.

			| contender                       | pairs measured / under MONITOR | calls/pair | round trips/pair | in scripts/pair | calls per pair by command (in scripts)                                                                                     |
			| ------------------------------- | ------------------------------ | ---------- | ---------------- | --------------- | -------------------------------------------------------------------------------------------------------------------------- |
			| floor: 2×PING, same key         | 20000 / 200                    | 2.00       | 2.00             | 0.00            | ping 2.00                                                                                                                  |
			| distlock client, same key       | 20000 / 200                    | 5.00       | 2.00             | 3.00            | evalsha 1.00 (del 1.00, exists 1.00, get 1.00), set 1.00                                                                   |
			| Redisson RLock, same key        | 20000 / 200                    | 12.00      | 3.00             | 9.00            | evalsha 2.00 (hincrby 2.00, del 1.00, exists 1.00, get 1.00, hexists 1.00, pexpire 1.00, publish 1.00, set 1.00), del 1.00 |

			## 2. Contended: one key, 2 JVMs × 4 threads, 1.0 ms critical section

			| contender       | holds | holds/s | efficiency | mean hold ms | lock busy | gap p50 µs | gap mean µs | gap p99 µs | gap max µs | gap p50 / floor | gap p50 across JVMs µs | overlaps | lost increments | min/max per thread | re-taken by releaser | handed within JVM | scripts/hold | other commands/hold | Redis cmds/hold |
			| --------------- | ----- | ------- | ---------- | ------------ | --------- | ---------- | ----------- | ---------- | ---------- | --------------- | ---------------------- | -------- | --------------- | ------------------ | -------------------- | ----------------- | ------------ | ------------------- | --------------- |
			| distlock client | 10032 | 832     | 0.83       | 1.114        | 0.93      | 40.1       | 87.8        | 1188.9     | 6279.2     | 0.23            | 734.2                  | 0        | 0               | 1243/1267 = 0.98   | 0.0 %                | 96.8 %            | 0.07         | 0.52                | 4.59            |
			| Redisson RLock  | 4391  | 362     | 0.36       | 1.356        | 0.49      | 981.0      | 1411.3      | 7135.2     | 24231.9    | 5.66            | 1030.7                 | 0        | 0               | 512/589 = 0.87     | 37.5 %               | 37.8 %            | 4.61         | 17.83               | 24.44           |

			Floor for the gap ratio: 2×PING p50 measured between the blocks, 173.2 µs

			Redis commands per hold (INFO commandstats): every command the server counted during the measured blocks.

			| contender       | holds measured / under MONITOR | calls/hold | round trips/hold | in scripts/hold | calls per hold by command (in scripts) |
			| --------------- | ------------------------------ | ---------- | ---------------- | --------------- | -------------------------------------- |
			| distlock client | 10032 / –                      | 4.59       | –                | –               | get 2.00, set 1.50, evalsha 0.07       |

			## 3. Many keys: 16 threads over 1000 keys

			| contender       | pairs  | pairs/s | share of floor's pairs/s | p50 µs | p99 µs | max ms | Redis cmds/pair |
			| --------------- | ------ | ------- | ------------------------ | ------ | ------ | ------ | --------------- |
			| floor: 2×PING   | 130554 | 21,735  | 1.00                     | 688.1  | 1550.3 | 8.7    | 2.00            |
			| distlock client | 103954 | 17,302  | 0.80                     | 871.4  | 1977.3 | 12.6   | 5.00            |
			| Redisson RLock  | 31911  | 5,300   | 0.24                     | 2697.2 | 8200.2 | 52.3   | 12.00           |

			Redis commands per pair (INFO commandstats): calls are every command the server counted during the measured pairs.

			| contender       | pairs measured / under MONITOR | calls/pair | round trips/pair | in scripts/pair | calls per pair by command (in scripts)                   |
			| --------------- | ------------------------------ | ---------- | ---------------- | --------------- | -------------------------------------------------------- |
			| floor: 2×PING   | 130554 / 30000                 | 2.00       | 2.00             | 0.00            | ping 2.00                                                |
			| distlock client | 103954 / 25000                 | 5.00       | 2.00             | 3.00            | evalsha 1.00 (del 1.00, exists 1.00, get 1.00), set 1.00 |
			""";

	@Test
	void uncontendedShowsEachContendersRatioToTheFloorPerKeyMode() {
		Chart chart = chart(RESULTS, "uncontended.png");
		DefaultCategoryDataset dataset = chart.dataset();
		assertThat(dataset.getRowKeys()).containsExactly("same key every time", "a new key every time");
		assertThat(dataset.getColumnKeys()).containsExactly("distlock client", "Redisson RLock");
		assertThat(value(dataset, "same key every time", "distlock client")).isEqualTo(1.34);
		assertThat(value(dataset, "a new key every time", "Redisson RLock")).isEqualTo(2.01);
		assertThat(markers(chart)).containsExactly(Map.entry("floor: 2×PING", 1.0));
	}

	@Test
	void contendedShowsEfficiencyAndFairnessPerContender() {
		DefaultCategoryDataset dataset = chart(RESULTS, "contended-throughput.png").dataset();
		assertThat(dataset.getColumnKeys()).containsExactly("distlock client", "Redisson RLock");
		assertThat(dataset.getRowCount()).isEqualTo(2);
		assertThat(value(dataset, "efficiency (holds/s × critical section)", "distlock client")).isEqualTo(0.83);
		assertThat(value(dataset, "fairness (fewest ÷ most holds of a thread)", "Redisson RLock")).isEqualTo(0.87);
	}

	@Test
	void contendedGapsAreOnALogScaleAgainstTheFloorMeasuredBetweenTheBlocks() {
		Chart chart = chart(RESULTS, "contended-gaps.png");
		DefaultCategoryDataset dataset = chart.dataset();
		assertThat(dataset.getRowKeys()).containsExactly("p50", "mean", "p99", "p50 from one JVM to the other");
		assertThat(value(dataset, "p50", "distlock client")).isEqualTo(40.1);
		assertThat(value(dataset, "p99", "Redisson RLock")).isEqualTo(7135.2);
		assertThat(value(dataset, "p50 from one JVM to the other", "Redisson RLock")).isEqualTo(1030.7);
		assertThat(chart.chart().getCategoryPlot().getRangeAxis()).isInstanceOf(LogAxis.class);
		assertThat(markers(chart)).containsExactly(Map.entry("floor: 2×PING p50, 173.2 µs", 173.2));
	}

	@Test
	void handOverGapsAreOnALogScaleAgainstTheBackToBackFloor() {
		Chart chart = chart("""
				## Hand-over across processes: 2 JVMs × 1 thread, one lock passed back and forth, 2.0 ms holds

				| contender | hand-overs across JVMs | gap p50 µs | gap p99 µs | gap p50 / floor |
				| --- | --- | --- | --- | --- |
				| distlock client | 7980 | 501.2 | 3309.6 | 3.27 |
				| Redisson RLock | 7485 | 676.4 | 4337.7 | 4.42 |

				Floor: 2×PING p50 measured in the harness JVM between the blocks, 153.1 µs (p99 3264.5 µs); \
				after idling 2.0 ms first, as a waiter does, 302.1 µs (p99 3272.7 µs).
				""", "handover.png");
		DefaultCategoryDataset dataset = chart.dataset();
		assertThat(dataset.getRowKeys()).containsExactly("p50", "p99");
		assertThat(value(dataset, "p50", "distlock client")).isEqualTo(501.2);
		assertThat(value(dataset, "p99", "Redisson RLock")).isEqualTo(4337.7);
		assertThat(chart.chart().getCategoryPlot().getRangeAxis()).isInstanceOf(LogAxis.class);
		assertThat(markers(chart)).containsExactly(Map.entry("floor: 2×PING p50, 153.1 µs", 153.1));
	}

	@Test
	void manyKeysShowsPairsPerSecondWithTheFloorAsAMarkerNotABar() {
		Chart chart = chart(RESULTS, "many-keys.png");
		DefaultCategoryDataset dataset = chart.dataset();
		assertThat(dataset.getColumnKeys()).containsExactly("distlock client", "Redisson RLock");
		assertThat(value(dataset, "pairs/s", "distlock client")).isEqualTo(17302);
		assertThat(markers(chart)).containsExactly(Map.entry("floor: 2×PING, 21,735 pairs/s", 21735.0));
		assertThat(chart.chart().getCategoryPlot().getRangeAxis().getUpperBound()).isGreaterThan(21735);
	}

	@Test
	void heldLocksShowsRenewalTrafficBeforeAndAfterChurn() {
		DefaultCategoryDataset dataset = chart(RESULTS, "held-locks.png").dataset();
		assertThat(value(dataset, "while holding", "distlock client")).isEqualTo(0.89);
		assertThat(value(dataset, "after releasing and re-acquiring all, 5 times", "Redisson RLock")).isEqualTo(7.0);
	}

	@Test
	void kindsShowTimeToTheLockInMillisecondsWithOperationsPerSecondInTheLabels() {
		DefaultCategoryDataset readMostly = chart(KINDS_AND_REACTIVE, "kinds-read-mostly.png").dataset();
		assertThat(readMostly.getColumnKeys()).containsExactly("distlock LockClient (843 ops/s)",
				"Redisson RReadWriteLock (144 ops/s)");
		assertThat(readMostly.getRowKeys()).containsExactly("read p50", "read p99", "write p50", "write p99");
		assertThat(value(readMostly, "write p99", "Redisson RReadWriteLock (144 ops/s)")).isCloseTo(892.8625,
				within(1e-9));
		DefaultCategoryDataset permits = chart(KINDS_AND_REACTIVE, "kinds-permits.png").dataset();
		assertThat(permits.getColumnKeys()).containsExactly("distlock LockClient (2,528 ops/s)",
				"Redisson RSemaphore (2,345 ops/s)");
		assertThat(value(permits, "p99", "distlock LockClient (2,528 ops/s)")).isCloseTo(8.7572, within(1e-9));
	}

	@Test
	void reactiveShowsOperationsPerSecondPerLoadAndContender() {
		DefaultCategoryDataset dataset = chart(KINDS_AND_REACTIVE, "reactive.png").dataset();
		assertThat(dataset.getColumnKeys()).containsExactly("Uncontended: 10000 keys, 1 operation in flight",
				"Contended: 4 keys, 64 operations in flight");
		assertThat(value(dataset, "floor: 2×PING, reactive", "Uncontended: 10000 keys, 1 operation in flight"))
			.isEqualTo(3642);
		assertThat(value(dataset, "distlock ReactiveLockClient", "Contended: 4 keys, 64 operations in flight"))
			.isEqualTo(4462);
		assertThat(dataset.getValue("floor: 2×PING, reactive", "Contended: 4 keys, 64 operations in flight")).isNull();
	}

	@Test
	void resultsWithRedisCommandsPerPairAreChartedAsBefore() {
		for (String fileName : List.of("uncontended.png", "contended-throughput.png", "contended-gaps.png",
				"many-keys.png")) {
			Chart before = chart(RESULTS, fileName);
			Chart after = chart(RESULTS_WITH_COMMANDS, fileName);
			assertThat(after.dataset()).as(fileName).isEqualTo(before.dataset());
		}
		for (String fileName : List.of("uncontended.png", "contended-gaps.png", "many-keys.png")) {
			assertThat(markers(chart(RESULTS_WITH_COMMANDS, fileName))).as(fileName)
				.isEqualTo(markers(chart(RESULTS, fileName)));
		}
	}

	@Test
	void onlyTheScenariosThatRanAreCharted() {
		assertThat(fileNames(BenchmarkCharts.charts(BenchmarkResults.parse(RESULTS)))).containsExactly(
				"uncontended.png", "contended-throughput.png", "contended-gaps.png", "many-keys.png", "held-locks.png");
		assertThat(fileNames(BenchmarkCharts.charts(BenchmarkResults.parse(KINDS_AND_REACTIVE))))
			.containsExactly("kinds-read-mostly.png", "kinds-permits.png", "reactive.png");
	}

	@Test
	void writesAPngPerScenarioBesideTheResults(@TempDir Path directory) throws IOException {
		Path results = directory.resolve("report.md");
		Files.writeString(results, RESULTS + KINDS_AND_REACTIVE, StandardCharsets.UTF_8);
		List<Path> written = BenchmarkCharts.write(results, directory);
		assertThat(written).hasSize(8).allSatisfy((file) -> assertThat(file.getParent()).isEqualTo(directory));
		for (Path file : written) {
			byte[] bytes = Files.readAllBytes(file);
			assertThat(bytes).as(file.toString()).startsWith(PNG_SIGNATURE);
			BufferedImage image = ImageIO.read(file.toFile());
			assertThat(image).as(file.toString()).isNotNull();
			assertThat(image.getWidth()).isEqualTo(BenchmarkCharts.WIDTH);
			assertThat(image.getHeight()).isGreaterThanOrEqualTo(360);
		}
	}

	@Test
	void theChartsOfTheBenchmarkPageAreTheOnesCommittedBesideIt(@TempDir Path directory) throws IOException {
		Path page = Path.of("..", "docs", "benchmarks.md");
		List<Path> written = BenchmarkCharts.write(page, directory);
		assertThat(written.stream().map((file) -> file.getFileName().toString())).containsExactly("uncontended.png",
				"contended-throughput.png", "contended-gaps.png", "many-keys.png", "held-locks.png",
				"kinds-read-mostly.png", "kinds-permits.png", "reactive.png", "redlock-uncontended.png",
				"redlock-contended.png", "handover.png");
		String markdown = Files.readString(page, StandardCharsets.UTF_8);
		for (Path file : written) {
			Path committed = Path.of("..", "docs", "images", "benchmarks").resolve(file.getFileName());
			assertThat(committed).as("run ./bench/run charts docs/benchmarks.md docs/images/benchmarks").exists();
			assertThat(markdown).contains("(images/benchmarks/" + file.getFileName() + ")");
		}
	}

	@Test
	void resultsWithoutABenchmarkTableAreRefusedWithTheHeadingsItReads(@TempDir Path directory) throws IOException {
		Path results = directory.resolve("notes.md");
		Files.writeString(results, "# Notes\n\nNothing measured.\n", StandardCharsets.UTF_8);
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkCharts.write(results, directory))
			.withMessageContaining("notes.md")
			.withMessageContaining("'1. Uncontended'");
	}

	@Test
	void cellsAreReadAsTheNumberTheyShow() {
		assertThat(BenchmarkResults.number("21,735")).isEqualTo(21735);
		assertThat(BenchmarkResults.number("1243/1267 = 0.98")).isEqualTo(0.98);
		assertThat(BenchmarkResults.number("96.8 %")).isEqualTo(96.8);
		assertThat(BenchmarkResults.number("–")).isNaN();
	}

	private static Chart chart(String markdown, String fileName) {
		return BenchmarkCharts.charts(BenchmarkResults.parse(markdown))
			.stream()
			.filter((chart) -> chart.fileName().equals(fileName))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No chart " + fileName));
	}

	private static double value(DefaultCategoryDataset dataset, String series, String category) {
		Number value = dataset.getValue(series, category);
		assertThat(value).as(series + " of " + category).isNotNull();
		return value.doubleValue();
	}

	private static Map<String, Double> markers(Chart chart) {
		@SuppressWarnings("unchecked")
		Collection<Marker> markers = chart.chart().getCategoryPlot().getRangeMarkers(Layer.FOREGROUND);
		return markers.stream()
			.collect(Collectors.toMap(Marker::getLabel, (marker) -> ((ValueMarker) marker).getValue()));
	}

	private static List<String> fileNames(List<Chart> charts) {
		return charts.stream().map(Chart::fileName).toList();
	}

}
