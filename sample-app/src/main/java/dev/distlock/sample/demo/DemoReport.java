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

package dev.distlock.sample.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The demo's result: what the load did to each scenario, how long acquisitions and
 * requests took, and whether everything is consistent.
 *
 * @param requests how many requests were sent
 * @param elapsed how long sending them took
 * @param stock the check of scenario 1
 * @param queue the check of scenario 2
 * @param pausedHolder the writes of an instance paused past its lease, after the load
 * @param lockAcquisitions time to acquire, by lock family, over all instances
 * @param requestLatency request latency seen by the client
 */
public record DemoReport(int requests, Duration elapsed, StockCheck stock, QueueCheck queue,
		PausedHolderCheck pausedHolder, Map<String, Percentiles> lockAcquisitions, Percentiles requestLatency) {

	/**
	 * Whether both scenarios ended exactly as they must.
	 * @return {@code true} if the stock and the queues are consistent, and the paused
	 * instance's writes were refused
	 */
	public boolean consistent() {
		return this.stock.consistent() && this.queue.consistent() && this.pausedHolder.consistent();
	}

	/**
	 * Merges the samples of several instances' recorders.
	 * @param recorders one per instance
	 * @return percentiles by lock family
	 */
	static Map<String, Percentiles> lockAcquisitions(List<LockWaitRecorder> recorders) {
		Map<String, List<Long>> merged = new TreeMap<>();
		recorders.forEach((recorder) -> recorder.samples()
			.forEach((family, nanos) -> merged.merge(family, nanos,
					(a, b) -> Stream.concat(a.stream(), b.stream()).toList())));
		Map<String, Percentiles> percentiles = new TreeMap<>();
		merged.forEach((family, nanos) -> percentiles.put(family, Percentiles.ofNanos(nanos)));
		return percentiles;
	}

	/**
	 * Prints the report.
	 * @param out where to print
	 */
	public void print(PrintStream out) {
		double seconds = this.elapsed.toMillis() / 1000.0;
		out.println();
		out.println("=== distlock demo report ===");
		out.printf("requests         %d in %.1f s (%.0f/s), %d unexpected responses%n", this.requests, seconds,
				this.requests / Math.max(seconds, 0.001), this.stock.unexpected() + this.queue.unexpected());
		out.printf("stock            %d decrements: %d sold, %d out of stock, %d busy (409 lock not acquired)%n",
				this.stock.sent(), this.stock.sold(), this.stock.outOfStock(), this.stock.busy());
		out.printf("                 final stock %d, expected %d, SKUs that do not add up: %d%n",
				this.stock.finalStock(), this.stock.expectedFinalStock(), this.stock.mismatchedSkus());
		out.printf("check-in queue   %d check-ins: %d new positions, %d repeated phones, %d busy%n", this.queue.sent(),
				this.queue.created(), this.queue.repeated(), this.queue.busy());
		out.printf(
				"                 highest positions %s, %d rows; duplicate queue numbers: %d, gaps: %d, "
						+ "phones answered with different positions: %d%n",
				new TreeMap<>(this.queue.maxPositions()), this.queue.rows(), this.queue.duplicates(), this.queue.gaps(),
				this.queue.disagreeingPhones());
		this.pausedHolder.print(out);
		this.lockAcquisitions
			.forEach((family, percentiles) -> out.printf("lock wait        %-16s %s%n", family, percentiles));
		out.printf("request latency  %s%n", this.requestLatency);
		out.println(consistent() ? "RESULT: CONSISTENT (exit status 0)" : "RESULT: INCONSISTENT (exit status 1)");
	}

}
