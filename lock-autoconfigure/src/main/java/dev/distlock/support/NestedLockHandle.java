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

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockMode;

/**
 * A re-entrant hold of a lock the thread already holds: it shares the outer hold's key,
 * lease and fencing token, and releasing it only ends this hold; the lock stays held
 * until the outermost hold ends.
 */
public final class NestedLockHandle implements LockHandle {

	private final LockHandle outer;

	private final Runnable endHold;

	private final AtomicBoolean released = new AtomicBoolean();

	/**
	 * Creates the handle of a re-entrant hold, already counted by the outer hold.
	 * @param outer the outermost hold of the lock
	 * @param endHold ends this hold in the outer hold's count, on the first release
	 */
	public NestedLockHandle(LockHandle outer, Runnable endHold) {
		this.outer = outer;
		this.endHold = endHold;
	}

	@Override
	public String key() {
		return this.outer.key();
	}

	@Override
	public String name() {
		return this.outer.name();
	}

	@Override
	public LockMode mode() {
		return this.outer.mode();
	}

	@Override
	public int permits() {
		return this.outer.permits();
	}

	@Override
	public Duration leaseTime() {
		return this.outer.leaseTime();
	}

	@Override
	public boolean isAutoRenewing() {
		return this.outer.isAutoRenewing();
	}

	@Override
	public long fencingToken() {
		return this.outer.fencingToken();
	}

	@Override
	public boolean isLeaseLost() {
		return this.outer.isLeaseLost();
	}

	@Override
	public LeaseLossWatch whenLeaseLost(Runnable action) {
		return this.outer.whenLeaseLost(action);
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	/**
	 * Extends the lease of the lock this hold shares with the outer hold.
	 */
	@Override
	public void extend(Duration leaseTime) {
		if (this.released.get()) {
			throw new IllegalStateException("Cannot extend lock " + LockKeyQuoting.quote(key())
					+ ": this re-entrant hold of it was already released. Extend a lock while holding it, "
					+ "before release().");
		}
		this.outer.extend(leaseTime);
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			this.endHold.run();
		}
	}

	@Override
	public String toString() {
		return "NestedLockHandle[" + this.outer + "]";
	}

}
