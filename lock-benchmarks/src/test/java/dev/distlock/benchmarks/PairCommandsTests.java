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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.distlock.benchmarks.BenchmarkResults.Table;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PairCommands} divides what commandstats counted by the measured pairs, takes
 * round trips and the commands inside scripts from the {@code MONITOR} pass, and writes
 * the breakdown with the scripts' commands in parentheses after the script command.
 */
class PairCommandsTests {

	@Test
	void blogLockIsFourCallsInTwoRoundTrips() {
		PairCommands blog = new PairCommands();
		blog.addMeasured(Map.of("set", 300L, "evalsha", 300L, "get", 300L, "del", 300L), 300);
		blog.addMonitored(Map.of("set", 200L, "evalsha", 200L, RedisMonitor.SCRIPT_TOTAL, 400L),
				Map.of("get", 200L, "del", 200L), 200);
		assertThat(blog.callsPerPair()).isEqualTo(4.0);
		assertThat(blog.roundTripsPerPair()).isEqualTo(2.0);
		assertThat(blog.inScriptsPerPair()).isEqualTo(2.0);
		assertThat(blog.breakdown()).isEqualTo("evalsha 1.00 (del 1.00, get 1.00), set 1.00");
	}

	@Test
	void commandThatClientsAndScriptsBothRunIsSplitAsTheMonitorPassSawIt() {
		// Redisson's unlock: a script that deletes the lock, then a DEL of the unlock
		// latch.
		PairCommands redisson = new PairCommands();
		redisson.addMeasured(Map.of("evalsha", 200L, "del", 200L, "hincrby", 100L, "publish", 100L), 100);
		redisson.addMonitored(Map.of("evalsha", 20L, "del", 10L), Map.of("del", 10L, "hincrby", 10L, "publish", 10L),
				10);
		assertThat(redisson.callsPerPair()).isEqualTo(6.0);
		assertThat(redisson.roundTripsPerPair()).isEqualTo(3.0);
		assertThat(redisson.breakdown()).isEqualTo("evalsha 2.00 (del 1.00, hincrby 1.00, publish 1.00), del 1.00");
	}

	@Test
	void withoutAMonitorPassNothingIsSplitAndRoundTripsAreNotShown() {
		PairCommands counted = new PairCommands();
		counted.addMeasured(Map.of("evalsha", 10L, "get", 10L, "ping", 1L), 10);
		assertThat(counted.roundTripsPerPair()).isNaN();
		assertThat(PairCommands.cell(counted.roundTripsPerPair())).isEqualTo("–");
		assertThat(counted.breakdown()).isEqualTo("evalsha 1.00, get 1.00, ping 0.10");
	}

	@Test
	void figuresUnderHalfAHundredthArePassedOver() {
		PairCommands floor = new PairCommands();
		floor.addMeasured(Map.of("ping", 2001L), 1000);
		assertThat(floor.callsPerPair()).isEqualTo(2.001);
		assertThat(floor.breakdown()).isEqualTo("ping 2.00");
	}

	@Test
	void subcommandsAreWrittenWithoutTheBarThatWouldEndTheTableCell() {
		PairCommands redisson = new PairCommands();
		redisson.addMeasured(Map.of("evalsha", 20L, "script|load", 1L), 10);
		assertThat(redisson.breakdown()).isEqualTo("evalsha 2.00, script load 0.10");
	}

	@Test
	void tableIsOneTheResultsParserReads() {
		PairCommands floor = new PairCommands();
		floor.addMeasured(Map.of("ping", 600L), 300);
		floor.addMonitored(Map.of("ping", 400L), Map.of(), 200);
		PairCommands blog = new PairCommands();
		blog.addMeasured(Map.of("set", 300L, "evalsha", 300L, "get", 300L, "del", 300L), 300);
		Map<String, PairCommands> rows = new LinkedHashMap<>();
		rows.put("floor: 2×PING", floor);
		rows.put("blog: SET NX PX + sleep(100)", blog);
		Table table = BenchmarkResults.parse("## 1. Uncontended\n\n" + PairCommands.table(rows, "pair"))
			.first(Pattern.compile("1\\. Uncontended"))
			.orElseThrow()
			.table();
		assertThat(table.headers()).containsExactly("contender", "pairs measured / under MONITOR", "calls/pair",
				"round trips/pair", "in scripts/pair", "calls per pair by command (in scripts)");
		assertThat(table.rows()).containsExactly(
				List.of("floor: 2×PING", "300 / 200", "2.00", "2.00", "0.00", "ping 2.00"),
				List.of("blog: SET NX PX + sleep(100)", "300 / –", "4.00", "–", "–",
						"del 1.00, evalsha 1.00, get 1.00, set 1.00"));
	}

}
