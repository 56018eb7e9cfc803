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

package dev.distlock.faults;

import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

import dev.distlock.DistributedLock;

/**
 * A reactive locked method, as a user writes one: {@code @DistributedLock} on a method
 * returning {@code Mono}, which counts its invocations and the subscriptions of its work.
 */
public class ReactiveJob {

	private final AtomicInteger bodies = new AtomicInteger();

	/**
	 * Runs the job under the lock: a 2 s wait time, a fixed 30 s lease.
	 * @param key the lock key
	 * @return the work, which completes with {@code "ran"}
	 */
	@DistributedLock(key = "#key", waitTime = "2s", leaseTime = "30s")
	public Mono<String> run(String key) {
		this.bodies.incrementAndGet();
		return Mono.fromCallable(() -> {
			this.bodies.incrementAndGet();
			return "ran";
		});
	}

	/**
	 * How many times the method was invoked or its work subscribed.
	 * @return the count
	 */
	public int bodies() {
		return this.bodies.get();
	}

}
