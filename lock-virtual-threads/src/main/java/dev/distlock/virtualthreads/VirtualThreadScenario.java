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
import java.util.List;
import java.util.UUID;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.distlock.virtualthreads.PinnedEvents.Pinning;

/**
 * One JVM's part of the virtual-thread scenario, on a running
 * {@link VirtualThreadApplication}: a warm-up of lone callers and a burst, on counters of
 * its own, which loads the classes of the lock path (the plain acquire of a free lock and
 * the acquire script) (a virtual thread that blocks while loading a class cannot leave
 * its carrier, a limit of the JDK that distlock cannot lift), then the measured burst,
 * each with its own recording of pinned virtual threads.
 */
public final class VirtualThreadScenario {

	/** How many callers the warm-up runs, on counters {@code w0} to {@code w3}. */
	public static final int WARM_UP_CALLERS = 200;

	private final AsyncTaskExecutor executor;

	private final LockedCounters counters;

	private final StringRedisTemplate redis;

	/**
	 * Creates the scenario of one JVM.
	 * @param context the running application
	 */
	public VirtualThreadScenario(ConfigurableApplicationContext context) {
		this.executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
		this.counters = context.getBean(LockedCounters.class);
		this.redis = context.getBean(StringRedisTemplate.class);
	}

	/**
	 * Runs the warm-up burst.
	 * @return the virtual threads pinned meanwhile
	 * @throws InterruptedException if interrupted
	 * @throws IllegalStateException if the warm-up did not finish exactly
	 */
	public Pinning warmUp() throws InterruptedException {
		PinnedEvents pinned = PinnedEvents.start();
		// A script the server does not know yet (EVALSHA answered NOSCRIPT) is sent again
		// with EVAL, whose classes load on first use: here, with a script of this JVM's
		// own, rather than in a burst that meets a lock script the other JVM has not
		// loaded yet.
		this.redis.execute(RedisScript.of("return '" + UUID.randomUUID() + "'", String.class), List.of());
		// Lone callers first: the client's first acquisition runs the acquire script, and
		// the next one of a free lock is a plain SET NX PX, whose classes load then; the
		// burst that follows finds its locks taken and goes to the script.
		for (int i = 0; i < 2; i++) {
			BurstReport lone = CallerBurst.run(this.executor, this.counters, 1, "u", 1, Duration.ofSeconds(30));
			if (lone.succeeded() != 1) {
				throw new IllegalStateException("Warm-up did not finish: " + lone);
			}
		}
		BurstReport burst = CallerBurst.run(this.executor, this.counters, WARM_UP_CALLERS, "w", 4,
				Duration.ofSeconds(60));
		if (burst.succeeded() != WARM_UP_CALLERS) {
			throw new IllegalStateException("Warm-up did not finish: " + burst);
		}
		return pinned.stop();
	}

	/**
	 * Runs the measured burst on counters {@code c0} to {@code c<n-1>}.
	 * @param callers how many callers
	 * @param counterCount how many counters
	 * @param bound how long the callers may take to start, and then to finish
	 * @return the burst's report and the virtual threads pinned meanwhile
	 * @throws InterruptedException if interrupted
	 */
	public Measured run(int callers, int counterCount, Duration bound) throws InterruptedException {
		return measure(callers, "c", counterCount, bound);
	}

	/**
	 * Returns the counters.
	 * @return the counters
	 */
	public LockedCounters counters() {
		return this.counters;
	}

	private Measured measure(int callers, String prefix, int counterCount, Duration bound) throws InterruptedException {
		PinnedEvents pinned = PinnedEvents.start();
		BurstReport burst = CallerBurst.run(this.executor, this.counters, callers, prefix, counterCount, bound);
		return new Measured(burst, pinned.stop());
	}

	/**
	 * A burst and what JFR saw meanwhile.
	 *
	 * @param burst what the callers did
	 * @param pinning the virtual threads pinned meanwhile
	 */
	public record Measured(BurstReport burst, Pinning pinning) {

	}

}
