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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code --demo} mode end to end, with a smaller load: two instances, one Redis, one
 * database, and a consistent report, in which the writes of an instance paused past its
 * lease are refused; and from the application's own main class, which has no embedded
 * Redis, a clear refusal.
 */
class DemoTests {

	@Test
	void demoUnderLoadReportsConsistentResults() throws Exception {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		DemoSettings settings = new DemoSettings(3, 50, 200, 120, 10, 16);
		DemoReport report;
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			report = new DemoLauncher(settings, new PrintStream(output, true, StandardCharsets.UTF_8), redis.url())
				.run();
		}
		String printed = output.toString(StandardCharsets.UTF_8);
		assertThat(report.consistent()).as(printed).isTrue();
		assertThat(report.stock().sent()).isEqualTo(200);
		assertThat(report.stock().finalStock()).isEqualTo(report.stock().expectedFinalStock());
		assertThat(report.queue().sent()).isEqualTo(120);
		assertThat(report.queue().duplicates()).isZero();
		assertThat(report.queue().gaps()).isZero();
		assertThat(report.lockAcquisitions()).containsKeys("lock:sku", "lock:check-in");
		assertThat(report.pausedHolder().stockRefusal()).isEqualTo("StaleFencingTokenException");
		assertThat(report.pausedHolder().stockKept()).isTrue();
		assertThat(report.pausedHolder().checkInRefusal()).isEqualTo("LockLostException");
		assertThat(report.pausedHolder().checkInStored()).isFalse();
		assertThat(printed).contains("=== distlock demo report ===", "RESULT: CONSISTENT (exit status 0)");
	}

	@Test
	void withoutTheEmbeddedRedisTheDemoStopsWithWhatToDo() {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		assertThat(DemoLauncher.refuse(new PrintStream(output, true, StandardCharsets.UTF_8))).isEqualTo(2);
		assertThat(output.toString(StandardCharsets.UTF_8))
			.isEqualTo("The demo runs on an embedded Redis, which is only on the development class path: "
					+ "TestSampleApplication in src/test starts it, with spring-boot:test-run, and the application "
					+ "jar leaves it out. Run the demo with "
					+ "./mvnw -pl sample-app -am spring-boot:test-run -Dspring-boot.run.arguments=--demo."
					+ System.lineSeparator());
	}

}
