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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.autoconfigure.metrics.DistributedLockMetricsAutoConfiguration;
import dev.distlock.observation.LockMetrics;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Work that stops when its lease is lost: the lock key is deleted while the locked method
 * runs (as an operator's {@code DEL}, or an eviction, would), and the next renewal, every
 * 300ms with a lease of 900ms, finds it gone. The locked method either checks its lease
 * between steps ({@link LockContext#checkLease()}), or, with
 * {@code distlock.interrupt-on-lease-lost}, is interrupted.
 */
@ExtendWith(OutputCaptureExtension.class)
class LeaseLossTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class))
		.withBean(SimpleMeterRegistry.class)
		.withBean(LostLeases.class)
		.withBean(Worker.class)
		.withPropertyValues("distlock.renewal.lease=900ms");

	@Test
	void checkBetweenStepsThrowsOnceTheRenewalFindsTheKeyGone() {
		this.runner.run((context) -> {
			Worker worker = context.getBean(Worker.class);
			String key = TestRedis.uniqueKey("report");
			Thread deleter = deleteOnceStarted(context.getBean(StringRedisTemplate.class), worker, key);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> worker.stepByStep(key))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key))
				.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("report"))
				.withMessageContaining("'" + key + "'")
				.withMessageContaining("LockContext.checkLease()");
			deleter.join();
			assertThat(worker.stepsAfterLoss()).as("steps done after the check found the loss").isZero();
			awaitLostLeases(context.getBean(LostLeases.class), "report");
		});
	}

	@Test
	void checkPassesWhileTheLeaseIsHeld() {
		this.runner.run((context) -> {
			Worker worker = context.getBean(Worker.class);
			assertThat(worker.checkOnce(TestRedis.uniqueKey("held"))).isTrue();
		});
	}

	@Test
	void checkOutsideALockedMethodFails() {
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(LockContext::checkLease)
			.withMessageContaining("@DistributedLock");
	}

	@Test
	void leaseLostInterruptsTheMethodWhenAskedAndTheCallerIsTold(CapturedOutput output) {
		this.runner.withPropertyValues("distlock.interrupt-on-lease-lost=true").run((context) -> {
			Worker worker = context.getBean(Worker.class);
			String key = TestRedis.uniqueKey("import");
			Thread deleter = deleteOnceStarted(context.getBean(StringRedisTemplate.class), worker, key);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> worker.blockUntilDone(key))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key))
				.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("import"))
				.withMessageContaining("'" + key + "'")
				.withMessageContaining("was interrupted")
				.withCauseInstanceOf(InterruptedException.class);
			deleter.join();
			assertThat(worker.outcome()).isEqualTo("interrupted");
			assertThat(Thread.currentThread().isInterrupted()).as("the caller's thread keeps no interrupt").isFalse();
			awaitLostLeases(context.getBean(LostLeases.class), "import");
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			await().atMost(TIMEOUT)
				.untilAsserted(
						() -> assertThat(meters.get(LockMetrics.LEASE_LOST).tag("name", "import").counter().count())
							.isEqualTo(1));
			assertThat(output).contains("Interrupting thread " + Thread.currentThread().getName())
				.contains("lock '" + key + "' (name 'import') was lost");
		});
	}

	@Test
	void leaseLostInterruptsNothingByDefault() {
		this.runner.run((context) -> {
			Worker worker = context.getBean(Worker.class);
			String key = TestRedis.uniqueKey("import");
			Thread deleter = deleteOnceStarted(context.getBean(StringRedisTemplate.class), worker, key);
			Thread finisher = new Thread(() -> {
				await().atMost(TIMEOUT).until(() -> worker.handle() != null && worker.handle().isLeaseLost());
				worker.finish();
			});
			finisher.start();
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> worker.blockUntilDone(key))
				.withMessageContaining("'" + key + "'")
				.withMessageContaining("was lost before release");
			deleter.join();
			finisher.join();
			assertThat(worker.outcome()).isEqualTo("finished");
			assertThat(Thread.currentThread().isInterrupted()).isFalse();
			awaitLostLeases(context.getBean(LostLeases.class), "import");
		});
	}

	/**
	 * Waits for the listeners to be told, on the renewal thread, which tells them just
	 * after it marked the lease lost (and so woke the method up).
	 */
	private static void awaitLostLeases(LostLeases lostLeases, String... names) {
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(lostLeases.names()).containsExactly(names));
	}

	private static Thread deleteOnceStarted(StringRedisTemplate redis, Worker worker, String key) {
		Thread deleter = new Thread(() -> {
			try {
				assertThat(worker.awaitStarted()).isTrue();
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
			assertThat(redis.delete(key)).as("the lock key deleted").isTrue();
		});
		deleter.start();
		return deleter;
	}

	/**
	 * Records the lost leases the client reports, by lock name.
	 */
	static class LostLeases implements LockListener {

		private final List<String> names = new CopyOnWriteArrayList<>();

		@Override
		public void leaseLost(LockHandle handle) {
			this.names.add(handle.name());
		}

		List<String> names() {
			return this.names;
		}

	}

	/**
	 * Locked work of several steps, or that blocks until told to finish.
	 */
	static class Worker {

		private final CountDownLatch started = new CountDownLatch(1);

		private final CountDownLatch done = new CountDownLatch(1);

		private final AtomicReference<LockHandle> handle = new AtomicReference<>();

		private final AtomicReference<String> outcome = new AtomicReference<>("none");

		private volatile int stepsAfterLoss;

		@DistributedLock(key = "#key", name = "report")
		public void stepByStep(String key) {
			this.started.countDown();
			long deadline = System.nanoTime() + TIMEOUT.toNanos();
			while (System.nanoTime() < deadline) {
				LockContext.checkLease();
				if (LockContext.current().orElseThrow().isLeaseLost()) {
					this.stepsAfterLoss++;
				}
				LockSupport.parkNanos(Duration.ofMillis(2).toNanos()); // the next step
			}
			throw new IllegalStateException("The lease was never found lost");
		}

		@DistributedLock(key = "#key", name = "quick")
		public boolean checkOnce(String key) {
			LockContext.checkLease();
			return true;
		}

		@DistributedLock(key = "#key", name = "import")
		public String blockUntilDone(String key) throws InterruptedException {
			this.handle.set(LockContext.current().orElseThrow());
			this.started.countDown();
			try {
				if (!this.done.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("Neither interrupted nor told to finish");
				}
			}
			catch (InterruptedException ex) {
				this.outcome.set("interrupted");
				throw ex;
			}
			this.outcome.set("finished");
			return "done";
		}

		public boolean awaitStarted() throws InterruptedException {
			return this.started.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}

		public void finish() {
			this.done.countDown();
		}

		public LockHandle handle() {
			return this.handle.get();
		}

		public String outcome() {
			return this.outcome.get();
		}

		public int stepsAfterLoss() {
			return this.stepsAfterLoss;
		}

	}

}
