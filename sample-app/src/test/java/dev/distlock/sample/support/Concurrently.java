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
