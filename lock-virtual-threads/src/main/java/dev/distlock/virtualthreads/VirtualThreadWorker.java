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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.virtualthreads.PinnedEvents.Pinning;
import dev.distlock.virtualthreads.VirtualThreadScenario.Measured;

/**
 * The second JVM of the virtual-thread scenario: records pinned virtual threads, starts
 * {@link VirtualThreadApplication}, says {@code ready}, waits for {@code go} on standard
 * input, runs a {@link CallerBurst} on Boot's virtual-thread
 * {@code applicationTaskExecutor} and prints its report and the pinned-thread counts. Its
 * lines start with {@link #PREFIX}; logs go to standard error.
 */
public final class VirtualThreadWorker {

	/** The start of every line the worker prints for the test. */
	public static final String PREFIX = "vt-worker ";

	private VirtualThreadWorker() {
	}

	/**
	 * Runs the worker.
	 * @param args the Redis port, the number of callers, the number of counters, and the
	 * bound in seconds
	 * @throws Exception if the burst is interrupted
	 */
	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int callers = Integer.parseInt(args[1]);
		int counters = Integer.parseInt(args[2]);
		Duration bound = Duration.ofSeconds(Long.parseLong(args[3]));
		try (ConfigurableApplicationContext context = VirtualThreadApplication.start(port)) {
			VirtualThreadScenario scenario = new VirtualThreadScenario(context);
			Pinning warmUp = scenario.warmUp();
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			say("ready");
			if ("go".equals(commands.readLine())) {
				Measured measured = scenario.run(callers, counters, bound);
				say("burst\t" + measured.burst().toLine());
				say("pinned\t" + measured.pinning().toLine());
				say("warm-up-pinned\t" + warmUp.toLine());
			}
		}
		catch (RuntimeException ex) {
			say("failed\t" + ex);
			throw ex;
		}
		// Callers that never finished must not keep the JVM alive.
		System.exit(0);
	}

	private static void say(String line) {
		System.out.println(PREFIX + line);
		System.out.flush();
	}

}
