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

package dev.distlock.support;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the holds that share one lock of one thread: the outer hold, plus one per
 * re-entrant acquisition. The lock is released, or passed on, when the count falls to
 * zero, and can no longer be entered after that.
 */
public final class HoldCount {

	private final AtomicInteger holds = new AtomicInteger(1);

	/**
	 * Counts a re-entrant hold.
	 * @return whether it was counted; {@code false} if the last hold already ended
	 */
	public boolean enter() {
		int current;
		do {
			current = this.holds.get();
			if (current == 0) {
				return false;
			}
		}
		while (!this.holds.compareAndSet(current, current + 1));
		return true;
	}

	/**
	 * Ends one hold.
	 * @return whether it was the last one
	 */
	public boolean exit() {
		return this.holds.decrementAndGet() == 0;
	}

	/**
	 * Returns whether the last hold has ended.
	 * @return whether the count is zero
	 */
	public boolean hasEnded() {
		return this.holds.get() == 0;
	}

	/**
	 * Returns how many holds share the lock now.
	 * @return the count
	 */
	public int depth() {
		return this.holds.get();
	}

}
