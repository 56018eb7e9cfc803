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

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.virtualthreads.PinnedEvents.Pinning;
import dev.distlock.virtualthreads.VirtualThreadScenario.Measured;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of virtual-thread callers in two JVMs on JDK 25, each a Spring Boot
 * application with {@code spring.threads.virtual.enabled=true}, increment a few counters
 * in Redis by a non-atomic read-modify-write under distributed locks: every caller gets
 * its lock and finishes within a bound (no deadlock), every count is exact, no holder
 * ever finds another inside its lock, and JFR records no virtual thread pinned to its
 * carrier with a {@code dev.distlock} frame on its stack.
 */
class VirtualThreadCallersTests {

	private static final int CALLERS_PER_JVM = 2_000;

	private static final int COUNTERS = 4;

	private static final Duration BOUND = Duration.ofSeconds(60);

	@BeforeAll
	static void runsOnJdk25() {
		assertThat(Runtime.version().feature())
			.as("lock-virtual-threads runs on JDK 25 only: its pom sets surefire's <jvm> (see docs/native-and-virtual-threads.md#virtual-threads)")
			.isGreaterThanOrEqualTo(25);
	}

	@Test
	void virtualThreadCallersInTwoJvmsCountExactlyWithoutDeadlockOrPinning() throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort();
				WorkerJvm worker = WorkerJvm.start(String.valueOf(redis.port()), String.valueOf(CALLERS_PER_JVM),
						String.valueOf(COUNTERS), String.valueOf(BOUND.toSeconds()))) {
			try (ConfigurableApplicationContext context = VirtualThreadApplication.start(redis.port())) {
				VirtualThreadScenario scenario = new VirtualThreadScenario(context);
				Pinning hereWarmUp = scenario.warmUp();
				worker.await("ready", Duration.ofSeconds(60));
				worker.send("go");
				Measured here = scenario.run(CALLERS_PER_JVM, COUNTERS, BOUND);
				BurstReport there = BurstReport.parse(worker.await("burst", BOUND.multipliedBy(2)));
				Pinning therePinned = Pinning.parse(worker.await("pinned", Duration.ofSeconds(30)));
				Pinning thereWarmUp = Pinning.parse(worker.await("warm-up-pinned", Duration.ofSeconds(30)));
				long[] counts = IntStream.range(0, COUNTERS)
					.mapToLong((i) -> scenario.counters().value("c" + i))
					.toArray();
				System.out.printf(
						"Virtual-thread callers on JDK %s: 2 JVMs x %d callers on %d counters%n"
								+ "  this JVM: %s%n  worker:   %s%n  counts: %s%n"
								+ "  pinned during the bursts: this JVM %s, worker %s%n"
								+ "  pinned during the warm-ups (%d callers each): this JVM %s, worker %s%n",
						Runtime.version(), CALLERS_PER_JVM, COUNTERS, here.burst(), there, Arrays.toString(counts),
						here.pinning(), therePinned, VirtualThreadScenario.WARM_UP_CALLERS, hereWarmUp, thereWarmUp);
				assertFinishedExactly(here.burst(), "this JVM");
				assertFinishedExactly(there, "the worker JVM");
				assertThat(counts)
					.as("every counter, incremented by %d callers in each JVM", CALLERS_PER_JVM / COUNTERS)
					.containsOnly(2L * CALLERS_PER_JVM / COUNTERS);
				assertThat(here.pinning().inDistlock()).as("pinned in this JVM: %s", here.pinning().example()).isZero();
				assertThat(therePinned.inDistlock()).as("pinned in the worker JVM: %s", therePinned.example()).isZero();
			}
		}
	}

	private static void assertFinishedExactly(BurstReport report, String jvm) {
		assertThat(report.inTime()).as("%s: every caller finished within %s: %s", jvm, BOUND, report).isTrue();
		assertThat(report.failure()).as("%s: first failure", jvm).isEmpty();
		assertThat(report.virtual()).as("%s: callers on virtual threads", jvm).isEqualTo(CALLERS_PER_JVM);
		assertThat(report.succeeded()).as("%s: callers that got their lock", jvm).isEqualTo(CALLERS_PER_JVM);
		assertThat(report.notAcquired()).as("%s: callers that did not", jvm).isZero();
		assertThat(report.overlaps()).as("%s: holders that found another inside the lock", jvm).isZero();
	}

}
