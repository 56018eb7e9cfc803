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

package dev.distlock.memory;

import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.support.NestedLockHandle;
import dev.distlock.support.ReentryRules;

/**
 * The keys each thread holds through one in-memory client, so that a thread that acquires
 * a key it holds re-enters its lock, as with the Redis client: with the same fencing
 * token, and never once the lease has run out. A thread holding the write side of a
 * read-write lock re-enters it for a read; one holding the read side cannot take the
 * write side, which would wait for itself ({@link IllegalLockUpgradeException}); a
 * semaphore's holder re-enters its permit. Asking for a held key in another way (an
 * exclusive lock inside a read lock, another number of permits) fails before anything is
 * acquired.
 */
final class ThreadHolds {

	private final InMemoryLockEvents events;

	private final ThreadLocal<Map<String, InMemoryLockHandle>> byThread = ThreadLocal.withInitial(HashMap::new);

	ThreadHolds(InMemoryLockEvents events) {
		this.events = events;
	}

	/**
	 * Returns a new hold of a key the current thread holds, or null if it holds none.
	 * @throws LockLeaseLostException if the thread's hold of the key has lost its lease
	 * @throws IllegalLockUpgradeException if the thread holds the read side of the key
	 * and asks for the write side
	 * @throws dev.distlock.LockMisconfigurationException if the thread holds the key in
	 * another way than it asks for
	 */
	@Nullable LockHandle reenter(String key, LockOptions options) {
		InMemoryLockHandle outer = this.byThread.get().get(key);
		if (outer == null) {
			return null;
		}
		if (outer.hasEnded()) {
			this.byThread.get().remove(key);
			return null;
		}
		checkKind(outer, options);
		if (outer.isLeaseLost()) {
			this.events.leaseLost(outer, "its lease had run out before a re-entrant acquisition");
			throw new LockLeaseLostException(key, outer.name(), outer.leaseTime(), outer.heldFor());
		}
		if (!outer.enter()) {
			this.byThread.get().remove(key);
			return null;
		}
		return new NestedLockHandle(outer, outer::exit);
	}

	private static void checkKind(InMemoryLockHandle outer, LockOptions options) {
		ReentryRules.check(outer.key(), outer.options(), options);
	}

	/** Records a hold granted to the current thread. */
	void add(InMemoryLockHandle handle) {
		this.byThread.get().put(handle.key(), handle);
	}

	/**
	 * Forgets a hold that ends, if it ends on its own thread; one released by another
	 * thread is forgotten when its thread next acquires the key.
	 */
	void forget(InMemoryLockHandle handle) {
		if (Thread.currentThread() == handle.grant().owner()) {
			Map<String, InMemoryLockHandle> held = this.byThread.get();
			held.remove(handle.key(), handle);
			if (held.isEmpty()) {
				this.byThread.remove();
			}
		}
	}

}
