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

package dev.distlock.redis;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.support.NestedLockHandle;
import dev.distlock.support.ReentryRules;

/**
 * The registry of the locks a client holds: which key each thread holds (for re-entry)
 * and every hold of the client (for monitoring, and to find the holds that share an owner
 * token). Holds are added when granted and forgotten when they end.
 */
final class HeldLocks {

	private final ThreadLocal<Map<String, RedisLockHandle>> byThread = ThreadLocal.withInitial(HashMap::new);

	private final Set<RedisLockHandle> all = ConcurrentHashMap.newKeySet();

	/**
	 * Returns a new hold of a key the current thread holds, or null if it holds none.
	 * @param options the options of the new acquisition, whose kind of lock must fit the
	 * held one ({@link ReentryRules})
	 * @throws LockLeaseLostException if the thread's hold of the key has lost its lease
	 * @throws IllegalLockUpgradeException if the thread holds the read lock and asks for
	 * the write lock
	 * @throws LockMisconfigurationException if it asks for another kind of lock
	 */
	@Nullable LockHandle reenter(String key, LockOptions options) {
		RedisLockHandle outer = this.byThread.get().get(key);
		if (outer == null) {
			return null;
		}
		ReentryRules.check(key, outer.options(), options);
		if (outer.isLeaseLost()) {
			outer.leaseLost("its lease had run out before a re-entrant acquisition");
			throw new LockLeaseLostException(key, outer.name(), outer.leaseTime(), outer.heldFor());
		}
		if (!outer.enter()) {
			this.byThread.get().remove(key);
			return null;
		}
		return new NestedLockHandle(outer, outer::exit);
	}

	/** Whether the current thread holds the key. */
	boolean isHeldByThread(String key) {
		return this.byThread.get().containsKey(key);
	}

	/** Records a hold granted to the current thread. */
	void add(RedisLockHandle handle) {
		if (handle.isBoundToThread()) {
			this.byThread.get().put(handle.key(), handle);
		}
		this.all.add(handle);
	}

	/** Forgets a hold that ends: it is no longer listed, or re-entered by its thread. */
	void forget(RedisLockHandle handle) {
		this.all.remove(handle);
		if (Thread.currentThread() == handle.owner()) {
			this.byThread.get().remove(handle.key(), handle);
		}
	}

	/**
	 * Marks lost every hold of the client that holds the key with the same owner token as
	 * the given one: a lock passed on between threads keeps its token, so news that the
	 * token no longer holds the key concerns the hold it was passed to as well. The given
	 * hold is marked even if it has ended when the lock was passing between threads with
	 * its token: then no hold still going may have the token (the thread passed the lock
	 * had not taken it, and goes to Redis instead), and the hold that passed it on worked
	 * without the lock. A hold that ended otherwise is not: its own release in Redis may
	 * have removed the key, and a release that finds the key gone reports the loss.
	 * @param whilePassing whether the lock was passing between threads with the token
	 * ({@link dev.distlock.redis.cohort.LocalCohort#holdLost})
	 */
	void tokenLost(RedisLockHandle handle, String reason, boolean whilePassing) {
		if (!handle.hasEnded()) {
			handle.leaseLost(reason);
		}
		else if (whilePassing) {
			handle.leaseLost(reason
					+ ", after this hold had passed the lock to another thread of this client that had not taken it yet");
		}
		for (RedisLockHandle other : this.all) {
			if (other != handle && other.key().equals(handle.key()) && other.token().equals(handle.token())) {
				other.leaseLost(reason);
			}
		}
	}

	/**
	 * Returns the locks held now, by any thread or reactive work; forgets those whose
	 * holder thread ended without releasing them once their lease has run out.
	 */
	List<RedisLockHandle> held() {
		this.all.removeIf((handle) -> !handle.isHolderAlive() && handle.isPastDeadline());
		return this.all.stream().filter((handle) -> !handle.hasEnded()).toList();
	}

	/** Returns the locks held now on a key: normally none or one. */
	List<RedisLockHandle> held(String key) {
		return this.all.stream().filter((handle) -> handle.key().equals(key) && !handle.hasEnded()).toList();
	}

}
