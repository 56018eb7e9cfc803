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
