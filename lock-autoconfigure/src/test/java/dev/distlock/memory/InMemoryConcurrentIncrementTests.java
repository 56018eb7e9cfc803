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

package dev.distlock.memory;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code distlock.store=in-memory}, in an application without any Redis, 16 threads
 * × 200 non-atomic read-modify-write increments of a field through a
 * {@link DistributedLock @DistributedLock} method give exactly 3,200, with no overlapping
 * holds and a greater fencing token for every hold.
 */
class InMemoryConcurrentIncrementTests {

	private static final int THREADS = 16;

	private static final int INCREMENTS = 200;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distlock.store=in-memory")
		.withBean(Counter.class);

	@Test
	void annotatedMethodSerializesIncrements() throws Exception {
		this.runner.run((context) -> {
			assertThat(context.getBean(LockClient.class)).isInstanceOf(InMemoryLockClient.class);
			Counter counter = context.getBean(Counter.class);
			ConcurrentRunner.run(THREADS, INCREMENTS, (thread) -> counter.increment());
			assertThat(counter.value()).isEqualTo(THREADS * INCREMENTS);
			counter.log().assertSerial(THREADS * INCREMENTS);
			List<Long> tokens = counter.tokens();
			assertThat(tokens).hasSize(THREADS * INCREMENTS);
			for (int i = 1; i < tokens.size(); i++) {
				assertThat(tokens.get(i)).as("fencing token of hold %d", i).isGreaterThan(tokens.get(i - 1));
			}
		});
	}

	/**
	 * A counter whose increment is a plain read, then write, of a field: correct only
	 * under the lock. The tokens are recorded under the lock too, so in the order of the
	 * holds.
	 */
	static class Counter {

		private final HoldLog log = new HoldLog();

		private final List<Long> tokens = new ArrayList<>();

		private long value;

		@DistributedLock(key = "'lock:counter'", waitTime = "1m")
		public void increment() {
			long start = System.nanoTime();
			long read = this.value;
			Thread.yield();
			this.value = read + 1;
			this.tokens.add(LockContext.fencingToken());
			this.log.record(start, System.nanoTime());
		}

		public long value() {
			return this.value;
		}

		public HoldLog log() {
			return this.log;
		}

		public List<Long> tokens() {
			return this.tokens;
		}

	}

}
