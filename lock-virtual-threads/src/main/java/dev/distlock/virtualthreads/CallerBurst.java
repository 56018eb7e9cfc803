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

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.core.task.AsyncTaskExecutor;

import dev.distlock.LockNotAcquiredException;

/**
 * Starts one task per caller on an executor (Boot's {@code applicationTaskExecutor}: a
 * virtual thread each), lets them all in at once, and has each increment one of a few
 * {@link LockedCounters}, alternately through {@code @DistributedLock} and the
 * {@code LockClient}; then waits, within a bound, for every caller to finish.
 */
public final class CallerBurst {

	private static final Method IS_VIRTUAL = isVirtualMethod();

	private final AtomicInteger succeeded = new AtomicInteger();

	private final AtomicInteger notAcquired = new AtomicInteger();

	private final AtomicInteger virtual = new AtomicInteger();

	private final AtomicReference<String> failure = new AtomicReference<>("");

	private CallerBurst() {
	}

	/**
	 * Runs the callers.
	 * @param executor starts each caller
	 * @param counters what the callers increment
	 * @param callers how many callers
	 * @param prefix the start of the counters' names
	 * @param counterCount how many counters, {@code <prefix>0} to {@code <prefix><n-1>};
	 * caller {@code i} increments {@code <prefix><i % n>}
	 * @param bound how long all callers may take to start, and then to finish
	 * @return what happened
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static BurstReport run(AsyncTaskExecutor executor, LockedCounters counters, int callers, String prefix,
			int counterCount, Duration bound) throws InterruptedException {
		CallerBurst burst = new CallerBurst();
		CountDownLatch started = new CountDownLatch(callers);
		CountDownLatch gate = new CountDownLatch(1);
		CountDownLatch finished = new CountDownLatch(callers);
		for (int i = 0; i < callers; i++) {
			String name = prefix + (i % counterCount);
			boolean annotated = i % 2 == 0;
			executor.execute(() -> {
				try {
					started.countDown();
					burst.call(gate, bound, () -> {
						if (annotated) {
							counters.incrementAnnotated(name);
						}
						else {
							counters.incrementProgrammatic(name);
						}
					});
				}
				finally {
					finished.countDown();
				}
			});
		}
		boolean allStarted = started.await(bound.toMillis(), TimeUnit.MILLISECONDS);
		long opened = System.nanoTime();
		gate.countDown();
		boolean allFinished = allStarted && finished.await(bound.toMillis(), TimeUnit.MILLISECONDS);
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
		int done = (int) (callers - finished.getCount());
		return new BurstReport(callers, done, allFinished, burst.succeeded.get(), burst.notAcquired.get(),
				burst.virtual.get(), counters.overlaps(), millis, burst.failure.get());
	}

	private void call(CountDownLatch gate, Duration bound, Runnable increment) {
		if (isVirtual()) {
			this.virtual.incrementAndGet();
		}
		try {
			if (!gate.await(bound.toMillis(), TimeUnit.MILLISECONDS)) {
				this.failure.compareAndSet("", "the callers were never let in");
				return;
			}
			increment.run();
			this.succeeded.incrementAndGet();
		}
		catch (LockNotAcquiredException ex) {
			this.notAcquired.incrementAndGet();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.failure.compareAndSet("", "interrupted");
		}
		catch (RuntimeException ex) {
			this.failure.compareAndSet("", ex.toString());
		}
	}

	/** Thread.isVirtual() through reflection: the sources compile for Java 17. */
	private static boolean isVirtual() {
		try {
			return (boolean) IS_VIRTUAL.invoke(Thread.currentThread());
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Method isVirtualMethod() {
		try {
			return Thread.class.getMethod("isVirtual");
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException("Virtual threads need JDK 21 or later; this is " + Runtime.version(), ex);
		}
	}

}
