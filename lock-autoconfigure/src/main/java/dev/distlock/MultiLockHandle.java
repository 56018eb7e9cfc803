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

package dev.distlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Several locks held together, all or nothing: what
 * {@link LockClient#lock(java.util.Collection, LockOptions)} returns. Each key keeps its
 * own lease, renewal and {@linkplain #fencingToken(String) fencing token}; the lease is
 * lost as soon as any key's is, and {@link #release()} releases every key.
 * <p>
 * Where this handle speaks of one key, it is the first one in lock order (the order of
 * {@link #keys()}): {@link #key()}, {@link #fencingToken()}, {@link #leaseTime()} and
 * {@link #observation()} are those of that key.
 */
public final class MultiLockHandle implements LockHandle {

	private final List<LockHandle> holds;

	private final AtomicBoolean released = new AtomicBoolean();

	/**
	 * Creates the handle of locks already held, one per key.
	 * @param holds the holds, one per key, in the order they were locked
	 * @throws IllegalArgumentException if there are none, or two hold the same key
	 */
	public MultiLockHandle(List<? extends LockHandle> holds) {
		Assert.notEmpty(holds, "holds must not be empty");
		this.holds = List.copyOf(holds);
		Assert.isTrue(this.holds.stream().map(LockHandle::key).distinct().count() == this.holds.size(),
				() -> "each key must be held once, was " + keysOf(this.holds));
	}

	@Override
	public String key() {
		return first().key();
	}

	@Override
	public List<String> keys() {
		return keysOf(this.holds);
	}

	@Override
	public String name() {
		return first().name();
	}

	@Override
	public Duration leaseTime() {
		return first().leaseTime();
	}

	@Override
	public boolean isAutoRenewing() {
		return first().isAutoRenewing();
	}

	/**
	 * Returns the fencing token of the first key in lock order; use
	 * {@link #fencingToken(String)} for the others.
	 * @return the fencing token of {@link #key()}
	 */
	@Override
	public long fencingToken() {
		return first().fencingToken();
	}

	@Override
	public long fencingToken(String key) {
		for (LockHandle hold : this.holds) {
			if (hold.key().equals(key)) {
				return hold.fencingToken();
			}
		}
		throw HeldKeys.notHeld(key, keys());
	}

	/**
	 * Returns whether the lease of any of the keys is lost.
	 * @return whether a key's lease was lost
	 */
	@Override
	public boolean isLeaseLost() {
		return this.holds.stream().anyMatch(LockHandle::isLeaseLost);
	}

	/**
	 * Runs an action once when the lease of any of the keys is found lost.
	 * @param action what to run
	 * @return the watch of every key
	 */
	@Override
	public LeaseLossWatch whenLeaseLost(Runnable action) {
		AtomicBoolean ran = new AtomicBoolean();
		Runnable once = () -> {
			if (ran.compareAndSet(false, true)) {
				action.run();
			}
		};
		List<LeaseLossWatch> watches = this.holds.stream().map((hold) -> hold.whenLeaseLost(once)).toList();
		return () -> watches.forEach(LeaseLossWatch::close);
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	/**
	 * Extends the lease of every key, in lock order, as
	 * {@link LockHandle#extend(Duration)} does for one; the first failure is thrown, and
	 * the keys after it are not extended (those before it keep their new lease).
	 * @param leaseTime how long each key is to be kept from now, at least 1 ms
	 * @throws IllegalStateException if this handle was released, or its leases are
	 * auto-renewing
	 */
	@Override
	public void extend(Duration leaseTime) {
		if (this.released.get()) {
			throw new IllegalStateException("Cannot extend the locks "
					+ keys().stream().map(LockKeyQuoting::quote).collect(Collectors.joining(", "))
					+ ": their handle was already released. Extend locks while holding them, before release().");
		}
		for (LockHandle hold : this.holds) {
			hold.extend(leaseTime);
		}
	}

	@Override
	public Observation observation() {
		return first().observation();
	}

	/**
	 * Releases every key, in the reverse of lock order, each even if releasing another
	 * failed.
	 * @throws LockLeaseLostException if a key's lease had expired (the first failure is
	 * thrown, any others are suppressed in it)
	 * @throws LockUnavailableException if Redis could not be reached for a key
	 */
	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			RuntimeException failure = releaseAll(this.holds);
			if (failure != null) {
				throw failure;
			}
		}
	}

	/**
	 * Releases holds in the reverse of the given order, each even if another fails.
	 * @param holds the holds, in lock order
	 * @return the first failure, with any others suppressed in it; null if none
	 */
	static @Nullable RuntimeException releaseAll(List<? extends LockHandle> holds) {
		RuntimeException first = null;
		for (int i = holds.size() - 1; i >= 0; i--) {
			try {
				holds.get(i).release();
			}
			catch (RuntimeException ex) {
				if (first == null) {
					first = ex;
				}
				else {
					first.addSuppressed(ex);
				}
			}
		}
		return first;
	}

	private LockHandle first() {
		return this.holds.get(0);
	}

	private static List<String> keysOf(List<LockHandle> holds) {
		return holds.stream().map(LockHandle::key).toList();
	}

	@Override
	public String toString() {
		return "MultiLockHandle" + this.holds;
	}

}
