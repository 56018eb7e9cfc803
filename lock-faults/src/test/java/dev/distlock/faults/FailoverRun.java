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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.springframework.boot.health.contributor.Status;

/**
 * What one failover of {@link SentinelFailoverTests} did: every call with its outcome,
 * the releases of the holds taken before the kill, and the figures that the assertions
 * read.
 */
record FailoverRun(int run, long kill, long promotion, List<FailoverCall> calls, List<String> releases,
		List<String> hung, int bodiesWithoutValidHold, HealthWatch health, HealthWatch defaultsHealth) {

	/** Whether the call was made by the client with Spring Boot's defaults. */
	static boolean byDefaultsClient(FailoverCall call) {
		return call.caller().startsWith("D");
	}

	long outageMillis() {
		return (this.promotion - this.kill) / 1_000_000;
	}

	/** Per key, ms from the promotion to the first grant after the kill (0 if before). */
	Map<String, Long> recoveryMillis() {
		Map<String, Long> recovery = new TreeMap<>();
		this.calls.stream()
			.filter((call) -> call.granted() && call.end() - this.kill > 0)
			.forEach((call) -> recovery.merge(call.key(), Math.max(0, (call.end() - this.promotion) / 1_000_000),
					Math::min));
		return recovery;
	}

	/** Calls that were in progress at some point between the kill and the promotion. */
	List<FailoverCall> outageCalls(boolean defaultsClient) {
		return this.calls.stream()
			.filter((call) -> byDefaultsClient(call) == defaultsClient)
			.filter((call) -> call.end() - this.kill > 0 && call.start() - this.promotion < 0)
			.toList();
	}

	Set<String> outageOutcomes(boolean defaultsClient) {
		return outageCalls(defaultsClient).stream()
			.map(FailoverCall::outcome)
			.collect(Collectors.toCollection(TreeSet::new));
	}

	long longestOutageCallMillis(boolean defaultsClient) {
		return outageCalls(defaultsClient).stream().mapToLong(FailoverCall::millis).max().orElse(0);
	}

	/** ms from the kill to the first DOWN answered, {@code -1} if none. */
	long healthDownMillis(boolean defaultsClient) {
		long down = (defaultsClient ? this.defaultsHealth : this.health).firstAnswered(Status.DOWN, this.kill);
		return (down < 0) ? -1 : (down - this.kill) / 1_000_000;
	}

	/** ms from the promotion to the first UP answered to a question asked after it. */
	long healthUpMillis(boolean defaultsClient) {
		long up = (defaultsClient ? this.defaultsHealth : this.health).firstAnswered(Status.UP, this.promotion);
		return (up < 0) ? -1 : (up - this.promotion) / 1_000_000;
	}

	/** The longest a health check took between the kill and the promotion. */
	long longestHealthCheckMillis(boolean defaultsClient) {
		return (defaultsClient ? this.defaultsHealth : this.health).samples()
			.stream()
			.filter((sample) -> sample.answered() - this.kill > 0 && sample.asked() - this.promotion < 0)
			.mapToLong((sample) -> (sample.answered() - sample.asked()) / 1_000_000)
			.max()
			.orElse(0);
	}

	int overlaps() {
		Map<String, HoldLog> logs = new TreeMap<>();
		this.calls.stream()
			.filter(FailoverCall::granted)
			.forEach((call) -> logs.computeIfAbsent(call.key(), (key) -> new HoldLog()).add(call.hold()));
		return logs.values().stream().mapToInt(HoldLog::overlaps).sum();
	}

	String describe(boolean defaultsClient) {
		Map<String, Long> outcomes = outageCalls(defaultsClient).stream()
			.collect(Collectors.groupingBy(FailoverCall::outcome, TreeMap::new, Collectors.counting()));
		return String.format(
				"run %d, %s: promotion %d ms after the kill; calls during the outage %s, longest %d ms; "
						+ "health DOWN %d ms after the kill (longest check %d ms), UP %d ms after the promotion",
				this.run, defaultsClient ? "Boot defaults" : "timeout=1s", outageMillis(), outcomes,
				longestOutageCallMillis(defaultsClient), healthDownMillis(defaultsClient),
				longestHealthCheckMillis(defaultsClient), healthUpMillis(defaultsClient));
	}

	String describe() {
		return String.format(
				"run %d: recovery after promotion %s ms; releases %s; overlapping holds %d; %d calls in all", this.run,
				recoveryMillis(), this.releases, overlaps(), this.calls.size());
	}

	static String spread(List<Long> values) {
		List<Long> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		return sorted.get(0) + "/" + sorted.get(sorted.size() / 2) + "/" + sorted.get(sorted.size() - 1);
	}

}
