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

package dev.distlock.virtualthreads;

/**
 * What a {@link CallerBurst} saw, in one line that the worker JVM prints and the test
 * reads back.
 *
 * @param callers how many callers were started
 * @param finished how many of them finished
 * @param inTime whether all of them finished within the bound
 * @param succeeded how many incremented their counter
 * @param notAcquired how many got a {@code LockNotAcquiredException}
 * @param virtual how many ran on a virtual thread
 * @param overlaps how many increments found another holder inside the lock
 * @param millis from letting the callers in until the last finished (or the bound)
 * @param failure the first other failure of a caller; empty if none
 */
public record BurstReport(int callers, int finished, boolean inTime, int succeeded, int notAcquired, int virtual,
		long overlaps, long millis, String failure) {

	/**
	 * Returns the report as one line of tab-separated fields.
	 * @return the line
	 */
	public String toLine() {
		return String.join("\t", String.valueOf(this.callers), String.valueOf(this.finished),
				String.valueOf(this.inTime), String.valueOf(this.succeeded), String.valueOf(this.notAcquired),
				String.valueOf(this.virtual), String.valueOf(this.overlaps), String.valueOf(this.millis),
				this.failure.replace('\t', ' ').replace('\n', ' '));
	}

	/**
	 * Reads a report back from {@link #toLine()}.
	 * @param line the line
	 * @return the report
	 */
	public static BurstReport parse(String line) {
		String[] fields = line.split("\t", -1);
		return new BurstReport(Integer.parseInt(fields[0]), Integer.parseInt(fields[1]),
				Boolean.parseBoolean(fields[2]), Integer.parseInt(fields[3]), Integer.parseInt(fields[4]),
				Integer.parseInt(fields[5]), Long.parseLong(fields[6]), Long.parseLong(fields[7]), fields[8]);
	}

}
