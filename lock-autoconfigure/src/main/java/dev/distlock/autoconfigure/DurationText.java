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

package dev.distlock.autoconfigure;

import java.time.Duration;

/**
 * Writes durations the way they are written in properties, in the largest unit that is
 * exact: {@code 1500ms}, {@code -1s}, {@code 2m}.
 */
final class DurationText {

	private static final long[] SECONDS = { 86_400, 3_600, 60, 1 };

	private static final String[] SECOND_UNITS = { "d", "h", "m", "s" };

	private static final long[] NANOS = { 1_000_000, 1_000, 1 };

	private static final String[] NANO_UNITS = { "ms", "us", "ns" };

	private DurationText() {
	}

	static String of(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.getNano() == 0) {
			long seconds = duration.getSeconds();
			for (int i = 0; i < SECONDS.length; i++) {
				if (seconds % SECONDS[i] == 0) {
					return (seconds / SECONDS[i]) + SECOND_UNITS[i];
				}
			}
		}
		long nanos;
		try {
			nanos = duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return duration.toString();
		}
		int unit = 0;
		while (nanos % NANOS[unit] != 0) {
			unit++;
		}
		return (nanos / NANOS[unit]) + NANO_UNITS[unit];
	}

}
