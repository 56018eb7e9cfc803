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

package dev.distlock.test.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * Runs the same task on many threads released together, and fails on the first error.
 */
public final class ConcurrentRunner {

	private ConcurrentRunner() {
	}

	/**
	 * Runs {@code iterations} calls of the task on each of {@code threads} threads, all
	 * started together, and waits up to 5 minutes for each thread to finish.
	 * @param threads how many threads
	 * @param iterations how many calls per thread
	 * @param task the task, given the thread's index
	 * @throws Exception the first failure of any call, as an
	 * {@link java.util.concurrent.ExecutionException}, or a
	 * {@link java.util.concurrent.TimeoutException} if a thread did not finish in time
	 */
	public static void run(int threads, int iterations, IntConsumer task) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < iterations; i++) {
						task.accept(thread);
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(5, TimeUnit.MINUTES);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

}
