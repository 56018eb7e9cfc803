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

import org.jspecify.annotations.Nullable;

import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;

/**
 * What every client checks before it extends a hold's lease
 * ({@link LockHandle#extend(Duration)}), written once: a lease of at least 1 ms, a handle
 * not released, a fixed lease (an auto-renewing one needs no extension), a lease not
 * lost.
 */
public final class LeaseExtensionRules {

	private LeaseExtensionRules() {
	}

	/**
	 * Returns why the hold cannot be extended, or null if it may be.
	 * @param hold the hold to extend
	 * @param leaseTime the lease asked for
	 * @param released whether the handle the holder extends was released
	 * @param heldFor how long the lock has been held
	 * @return the exception to throw, or null
	 */
	public static @Nullable RuntimeException refusal(LockHandle hold, Duration leaseTime, boolean released,
			Duration heldFor) {
		if (leaseTime.toMillis() < 1) {
			return new IllegalArgumentException("Cannot extend lock " + LockKeyQuoting.quote(hold.key()) + " by "
					+ leaseTime + ": the lease of an extension must be at least 1ms");
		}
		if (released) {
			return new IllegalStateException("Cannot extend lock " + LockKeyQuoting.quote(hold.key())
					+ ": its handle was already released. Extend a lock while holding it, before release().");
		}
		if (hold.isAutoRenewing()) {
			return new IllegalStateException("Cannot extend lock " + LockKeyQuoting.quote(hold.key())
					+ ": its lease is auto-renewing (to " + hold.leaseTime()
					+ " every third of it) until it is released, so it needs no extension. extend(Duration) is for "
					+ "locks acquired with a fixed lease time.");
		}
		if (hold.isLeaseLost()) {
			return lost(hold, heldFor);
		}
		return null;
	}

	/**
	 * Returns the exception of an extension that found the hold's lease lost.
	 * @param hold the hold
	 * @param heldFor how long the lock has been held
	 * @return the exception
	 */
	public static LockLeaseLostException lost(LockHandle hold, Duration heldFor) {
		return LockLeaseLostException.whenExtending(hold.key(), hold.name(), hold.leaseTime(), heldFor);
	}

}
