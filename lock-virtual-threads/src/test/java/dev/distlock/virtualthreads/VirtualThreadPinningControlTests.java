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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.core.task.SimpleAsyncTaskExecutor;

import dev.distlock.virtualthreads.PinnedEvents.Pinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Shows that {@link PinnedEvents} sees pinning where JDK 25 still pins: a virtual thread
 * that blocks in a class initializer is counted, with its {@code dev.distlock} frames. On
 * JDK 25 a virtual thread waiting inside {@code synchronized} leaves its carrier (JEP
 * 491), which is shown too: the monitors that distlock still avoids around waits and
 * Redis calls pin only on JDK 21 to 23, which this suite does not run on.
 */
class VirtualThreadPinningControlTests {

	/** Opened once the virtual thread blocks in {@link SlowInitializer}. */
	static final CountDownLatch OPEN = new CountDownLatch(1);

	@BeforeAll
	static void runsOnJdk25() {
		assertThat(Runtime.version().feature())
			.as("lock-virtual-threads runs on JDK 25 only: its pom sets surefire's <jvm> (see docs/native-and-virtual-threads.md#virtual-threads)")
			.isGreaterThanOrEqualTo(25);
	}

	@Test
	void blockingInAClassInitializerIsCountedAsPinned() throws Exception {
		PinnedEvents events = PinnedEvents.start();
		AtomicReference<Thread> thread = new AtomicReference<>();
		Future<?> initializing = virtualThreads().submit(() -> {
			thread.set(Thread.currentThread());
			SlowInitializer.initialize();
		});
		await().atMost(Duration.ofSeconds(10))
			.until(() -> thread.get() != null && thread.get().getState() == Thread.State.TIMED_WAITING);
		OPEN.countDown();
		initializing.get(10, TimeUnit.SECONDS);
		Pinning pinning = events.stop();
		System.out.println("Pinning control (class initializer): " + pinning);
		assertThat(pinning.inDistlock()).isEqualTo(1);
		assertThat(pinning.example()).contains("SlowInitializer.<clinit>");
	}

	@Test
	void waitingInsideSynchronizedDoesNotPinOnJdk25() throws Exception {
		PinnedEvents events = PinnedEvents.start();
		Object monitor = new Object();
		CountDownLatch waiting = new CountDownLatch(1);
		Future<?> waiter = virtualThreads().submit(() -> {
			synchronized (monitor) {
				waiting.countDown();
				try {
					monitor.wait(10_000);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		});
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		synchronized (monitor) {
			monitor.notifyAll();
		}
		waiter.get(10, TimeUnit.SECONDS);
		Pinning pinning = events.stop();
		System.out.println("Pinning control (Object.wait inside synchronized): " + pinning);
		assertThat(pinning.total()).isZero();
	}

	private static SimpleAsyncTaskExecutor virtualThreads() {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("pinning-control-");
		executor.setVirtualThreads(true);
		return executor;
	}

}
