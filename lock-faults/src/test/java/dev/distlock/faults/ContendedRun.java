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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code contend} commands of several workers left in their files: the holds, and
 * the calls that failed with when they ended.
 *
 * @param log the holds of every worker
 * @param errors the failed calls, as {@code <nanos> <exception>}
 */
record ContendedRun(HoldLog log, List<String> errors) {

	/**
	 * The command line of a {@code contend} command with a renewed lease.
	 * @param id the command's id
	 * @param lock the lock's word ({@link WorkerLock})
	 * @param key the key (keys as {@code a,b})
	 * @param threads how many threads
	 * @param durationMs how long they contend
	 * @param bodyMs how long each body holds
	 * @param resourcePort the port of the fenced resource's Redis
	 * @param file where the holds go
	 * @return the line
	 */
	static String command(String id, String lock, String key, int threads, long durationMs, long bodyMs,
			int resourcePort, Path file) {
		return String.join(" ", "contend", id, lock, key, String.valueOf(threads), String.valueOf(durationMs), "renew",
				String.valueOf(bodyMs), String.valueOf(resourcePort), file.toString());
	}

	/**
	 * Reads the files of the workers.
	 * @param files the hold file of each worker, by the worker's name
	 * @return the run
	 */
	static ContendedRun read(Map<String, Path> files) {
		HoldLog log = new HoldLog();
		List<String> errors = new ArrayList<>();
		files.forEach((worker, file) -> {
			log.read(worker, file);
			errors.addAll(lines(Path.of(file + ".errors")));
		});
		return new ContendedRun(log, errors);
	}

	/**
	 * Counts the calls that failed between two instants, by exception.
	 * @param from the first instant, by {@link System#nanoTime()}
	 * @param to the last
	 * @return the count of each exception's simple name
	 */
	Map<String, Integer> errorsBetween(long from, long to) {
		Map<String, Integer> counts = new TreeMap<>();
		for (String error : this.errors) {
			String[] words = error.split(" ");
			long at = Long.parseLong(words[0]);
			if (at - from >= 0 && at - to <= 0) {
				counts.merge(words[1], 1, Integer::sum);
			}
		}
		return counts;
	}

	/**
	 * Counts every failed call, by exception.
	 * @return the count of each exception's simple name
	 */
	Map<String, Integer> errorCounts() {
		return errorsBetween(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2);
	}

	/**
	 * How long after an instant the first hold (exclusive only, if asked) started.
	 * @param instant the instant, by {@link System#nanoTime()}
	 * @param exclusiveOnly whether to count only exclusive holds
	 * @return the time in ms, or -1 if none started after it
	 */
	long firstHoldAfterMs(long instant, boolean exclusiveOnly) {
		return this.log.holds()
			.stream()
			.filter((hold) -> (hold.exclusive() || !exclusiveOnly) && hold.start() - instant >= 0)
			.mapToLong((hold) -> (hold.start() - instant) / 1_000_000)
			.min()
			.orElse(-1);
	}

	private static List<String> lines(Path file) {
		try {
			return Files.exists(file) ? Files.readAllLines(file).stream().filter((line) -> !line.isBlank()).toList()
					: List.of();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
