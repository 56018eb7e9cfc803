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

package dev.distlock.sample.demo;

import java.net.http.HttpClient;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends requests with {@link HttpClient}, keeping a fixed number in flight, and collects
 * every outcome. A connection failure is an outcome too (status {@code -1}), never a lost
 * request.
 */
final class LoadGenerator {

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final int concurrency;

	private final AtomicInteger completed = new AtomicInteger();

	/**
	 * Creates a generator.
	 * @param concurrency how many requests may be in flight at once
	 */
	LoadGenerator(int concurrency) {
		this.concurrency = concurrency;
	}

	/**
	 * Returns how many requests have completed so far, for progress reports.
	 * @return the count
	 */
	int completed() {
		return this.completed.get();
	}

	/**
	 * Sends all requests and waits for all outcomes.
	 * @param requests the requests
	 * @param timeout how long to wait for the last outcome
	 * @return the outcomes, in the order of the requests
	 * @throws InterruptedException if interrupted while sending or waiting
	 * @throws IllegalStateException if outcomes are still missing after the timeout
	 */
	List<DemoResponse> send(List<DemoRequest> requests, Duration timeout) throws InterruptedException {
		Semaphore inFlight = new Semaphore(this.concurrency);
		CountDownLatch done = new CountDownLatch(requests.size());
		DemoResponse[] responses = new DemoResponse[requests.size()];
		for (int i = 0; i < requests.size(); i++) {
			int index = i;
			DemoRequest request = requests.get(i);
			inFlight.acquire();
			long start = System.nanoTime();
			this.client.sendAsync(request.http(), BodyHandlers.ofString()).whenComplete((response, failure) -> {
				long nanos = System.nanoTime() - start;
				responses[index] = (response != null)
						? new DemoResponse(request, response.statusCode(), response.body(), nanos)
						: new DemoResponse(request, -1, String.valueOf(failure), nanos);
				this.completed.incrementAndGet();
				inFlight.release();
				done.countDown();
			});
		}
		if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException(done.getCount() + " request(s) still unanswered after " + timeout);
		}
		return Arrays.asList(responses);
	}

}
