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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * Threads that call a lock client on their keys in a loop and record every call: when it
 * started and ended, whether it was granted or which exception it threw, the fencing
 * token, and for a grant the hold of its body.
 */
final class LockCallLog {

	private final List<Call> calls = new CopyOnWriteArrayList<>();

	private final HoldLog holds = new HoldLog();

	private final List<Thread> threads = new CopyOnWriteArrayList<>();

	private volatile boolean stopped;

	/**
	 * Starts one thread per key.
	 * @param client the client
	 * @param keys the keys
	 * @param options the options of every call
	 * @param body how long each body holds
	 */
	void start(LockClient client, List<String> keys, LockOptions options, Duration body) {
		for (String key : keys) {
			Thread thread = new Thread(() -> {
				while (!this.stopped) {
					call(client, key, options, body);
				}
			}, "calls-" + key);
			this.threads.add(thread);
			thread.start();
		}
	}

	private void call(LockClient client, String key, LockOptions options, Duration body) {
		long start = System.nanoTime();
		LockHandle handle;
		try {
			handle = client.lock(key, options);
		}
		catch (RuntimeException ex) {
			this.calls.add(new Call(key, start, System.nanoTime(), ex.getClass().getSimpleName(), -1));
			Pause.millis(10);
			return;
		}
		long granted = System.nanoTime();
		this.calls.add(new Call(key, start, granted, Call.GRANTED, handle.fencingToken()));
		Pause.until(granted + body.toNanos());
		long ended = System.nanoTime();
		synchronized (this.holds) {
			this.holds.add(new Hold(key, granted, ended, handle.fencingToken(), true));
		}
		LockCalls.release(handle);
	}

	/** Stops every thread and waits until they are done. */
	void stop() throws InterruptedException {
		this.stopped = true;
		for (Thread thread : this.threads) {
			thread.join(30_000);
		}
	}

	List<Call> calls() {
		return List.copyOf(this.calls);
	}

	/**
	 * The holds of one key.
	 * @param key the key
	 * @return its holds
	 */
	HoldLog holds(String key) {
		HoldLog log = new HoldLog();
		this.holds.holds().stream().filter((hold) -> hold.holder().equals(key)).forEach(log::add);
		return log;
	}

	/**
	 * One call.
	 *
	 * @param key the key
	 * @param start {@link System#nanoTime()} when it was made
	 * @param end when it returned or threw
	 * @param outcome {@link #GRANTED} or the simple name of the exception
	 * @param token the fencing token, {@code -1} without a grant
	 */
	record Call(String key, long start, long end, String outcome, long token) {

		static final String GRANTED = "granted";

		boolean granted() {
			return GRANTED.equals(this.outcome);
		}

	}

}
