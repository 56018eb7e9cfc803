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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * The callers of a failover scenario: threads that take a key in a loop (2 s wait time, a
 * short body) and record every call, and holders that take a key before the fault and
 * release it when told, then go on calling like the others. A body checks that its hold
 * is valid when it starts.
 */
final class FailoverCallers {

	static final Duration WAIT_TIME = Duration.ofSeconds(2);

	private static final long BODY_MILLIS = 50;

	private final List<FailoverCall> calls = new CopyOnWriteArrayList<>();

	private final List<String> releases = new CopyOnWriteArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private final AtomicInteger bodiesWithoutValidHold = new AtomicInteger();

	private volatile boolean stopped;

	/**
	 * Starts a thread that takes the key in a loop until {@link #stop}.
	 */
	void contend(String caller, LockClient client, String key) {
		start(caller, () -> loop(caller, client, key));
	}

	/**
	 * Takes the key now with the given lease ({@code null}: renewed), releases it when
	 * the latch opens, recording the release's outcome, then takes it in a loop.
	 */
	void hold(String caller, LockClient client, String key, Duration lease, CountDownLatch release) {
		LockHandle handle = LockCalls.lockEventually(client, key, new LockOptions(WAIT_TIME, lease, Duration.ZERO));
		this.calls.add(new FailoverCall(caller, key, System.nanoTime(), System.nanoTime(), FailoverCall.GRANTED,
				handle.fencingToken(), Long.MAX_VALUE));
		start(caller, () -> {
			awaitQuietly(release);
			long ended = System.nanoTime();
			String outcome = LockCalls.release(handle);
			this.releases.add(key + ": " + outcome + " after " + (System.nanoTime() - ended) / 1_000_000 + " ms, "
					+ "leaseLost=" + handle.isLeaseLost());
			replaceOpenHold(key, handle.fencingToken(), ended);
			loop(caller, client, key);
		});
	}

	private void loop(String caller, LockClient client, String key) {
		LockOptions options = LockOptions.renewing(WAIT_TIME);
		while (!this.stopped) {
			long start = System.nanoTime();
			try (LockHandle handle = client.lock(key, options)) {
				long granted = System.nanoTime();
				// Asked at the grant, as a body that fences its writes would (a lock
				// acquired with SET NX PX is issued its token when first asked).
				long token = handle.fencingToken();
				if (handle.isLeaseLost()) {
					this.bodiesWithoutValidHold.incrementAndGet();
				}
				Pause.millis(BODY_MILLIS);
				this.calls
					.add(new FailoverCall(caller, key, start, granted, FailoverCall.GRANTED, token, System.nanoTime()));
			}
			catch (RuntimeException ex) {
				this.calls
					.add(new FailoverCall(caller, key, start, System.nanoTime(), ex.getClass().getSimpleName(), 0, 0));
				Pause.millis(20);
			}
		}
	}

	private void replaceOpenHold(String key, long token, long ended) {
		this.calls.stream()
			.filter((call) -> call.key().equals(key) && call.token() == token && call.bodyEnd() == Long.MAX_VALUE)
			.findFirst()
			.ifPresent((open) -> {
				this.calls.remove(open);
				this.calls
					.add(new FailoverCall(open.caller(), key, open.start(), open.end(), open.outcome(), token, ended));
			});
	}

	/**
	 * Stops the loops and waits for the calls in progress.
	 * @param bound how long a call may still take
	 * @return the names of threads still in a call after the bound (hung calls)
	 */
	List<String> stop(Duration bound) {
		this.stopped = true;
		long deadline = System.nanoTime() + bound.toNanos();
		List<String> hung = new ArrayList<>();
		for (Thread thread : this.threads) {
			try {
				thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (thread.isAlive()) {
				hung.add(thread.getName());
			}
		}
		return hung;
	}

	List<FailoverCall> calls() {
		return List.copyOf(this.calls);
	}

	List<String> releases() {
		return List.copyOf(this.releases);
	}

	int bodiesWithoutValidHold() {
		return this.bodiesWithoutValidHold.get();
	}

	private void start(String caller, Runnable loop) {
		Thread thread = new Thread(loop, "failover-" + caller);
		thread.setDaemon(true);
		this.threads.add(thread);
		thread.start();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
