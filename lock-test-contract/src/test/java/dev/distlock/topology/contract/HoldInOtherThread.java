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

package dev.distlock.topology.contract;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.distlock.topology.contract.SkuStock.Hold;

/**
 * A lock held by a {@link SkuStock} method on a thread of its own until the test lets it
 * go, so that the test's thread can meanwhile play another caller.
 */
final class HoldInOtherThread {

	private final CountDownLatch release = new CountDownLatch(1);

	private final CompletableFuture<Hold> result = new CompletableFuture<>();

	private HoldInOtherThread() {
	}

	/**
	 * Calls a holding method on a new thread and waits until it holds the lock.
	 * @param call the method, given the latch it counts down once it holds the lock and
	 * the one it waits for before it lets go
	 * @return the hold
	 * @throws Exception the method's failure, if it failed before holding the lock
	 */
	static HoldInOtherThread start(HoldingCall call) throws Exception {
		HoldInOtherThread hold = new HoldInOtherThread();
		CountDownLatch held = new CountDownLatch(1);
		new Thread(() -> {
			try {
				hold.result.complete(call.hold(held, hold.release));
			}
			catch (Throwable ex) {
				hold.result.completeExceptionally(ex);
			}
		}, "holder").start();
		while (!held.await(10, TimeUnit.MILLISECONDS)) {
			if (hold.result.isDone()) {
				hold.result.get();
			}
		}
		return hold;
	}

	/**
	 * Lets the holder go.
	 * @return what the holding method returned or threw
	 */
	CompletableFuture<Hold> release() {
		this.release.countDown();
		return this.result;
	}

	/**
	 * A call of a method that holds a lock until told to let go.
	 */
	@FunctionalInterface
	interface HoldingCall {

		/**
		 * Holds the lock.
		 * @param held counted down once the lock is held
		 * @param release awaited before the lock is let go
		 * @return the hold
		 * @throws InterruptedException if interrupted while holding
		 */
		Hold hold(CountDownLatch held, CountDownLatch release) throws InterruptedException;

	}

}
