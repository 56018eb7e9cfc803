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

package dev.distlock.sample.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Runs many calls on a pool of threads that are released together, and returns every
 * result.
 */
public final class Concurrently {

	private Concurrently() {
	}

	/**
	 * Runs {@code calls} calls of the task on {@code threads} threads, all waiting on one
	 * latch until every call has been submitted.
	 * @param <T> the result type
	 * @param calls how many calls
	 * @param threads how many threads
	 * @param call the call, given its index
	 * @return the results, in the order of the indexes
	 * @throws Exception the first failure of any call
	 */
	public static <T> List<T> run(int calls, int threads, IntFunction<T> call) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<T>> futures = new ArrayList<>();
			for (int i = 0; i < calls; i++) {
				int index = i;
				futures.add(executor.submit(() -> {
					start.await();
					return call.apply(index);
				}));
			}
			start.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(2, TimeUnit.MINUTES));
			}
			return results;
		}
		finally {
			executor.shutdownNow();
		}
	}

}
