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

import java.time.Duration;
import java.util.function.Consumer;

import dev.distlock.LockOptions;
import dev.distlock.redis.cohort.Baton;
import dev.distlock.redis.lease.Lease;
import dev.distlock.redis.lease.LeaseRenewer;

/**
 * Turns what an acquisition was granted into a hold: creates the handle with its local
 * validity, registers it ({@link HeldLocks}), has its lease renewed if it is
 * auto-renewing (its deadline watched either way, so that a lease running out while held
 * is reported when it does), confirms in the background a hand-over that Redis keeps only
 * for its claim window (so that the holder's method starts without waiting), and reports
 * the acquisition.
 */
final class LockGrants {

	private final HeldLocks held;

	private final LeaseRenewer<RedisLockHandle> renewer;

	private final LockEvents events;

	private final Consumer<RedisLockHandle> ending;

	private final LeaseExtension<RedisLockHandle> extension;

	LockGrants(HeldLocks held, LeaseRenewer<RedisLockHandle> renewer, LockEvents events,
			Consumer<RedisLockHandle> ending, LeaseExtension<RedisLockHandle> extension) {
		this.held = held;
		this.renewer = renewer;
		this.events = events;
		this.ending = ending;
		this.extension = extension;
	}

	/** Records a lock acquired in Redis, or handed over through its queue. */
	RedisLockHandle grantedInRedis(String key, String token, Grant grant, Duration lease, LockOptions options,
			long startNanos) {
		RedisLockHandle handle = new RedisLockHandle(this.ending, this.extension, key, token, grant.fencingToken(),
				lease, options, Lease.granted(grant.sentNanos(), grant.validFor()), true);
		register(handle, startNanos);
		if (grant.validFor().compareTo(lease) < 0) {
			this.renewer.confirm(handle);
		}
		return handle;
	}

	/**
	 * Records a lock acquired in Redis, or handed over through its queue, for reactive
	 * work: the hold belongs to no thread, and its release is the work's
	 * ({@link ReactiveRedisLockHandle}).
	 */
	RedisLockHandle grantedToWork(String key, String token, Grant grant, Duration lease, LockOptions options,
			long startNanos) {
		RedisLockHandle handle = new RedisLockHandle((released) -> {
		}, this.extension, key, token, grant.fencingToken(), lease, options,
				Lease.granted(grant.sentNanos(), grant.validFor()), false);
		register(handle, startNanos);
		if (grant.validFor().compareTo(lease) < 0) {
			this.renewer.confirm(handle);
		}
		return handle;
	}

	/**
	 * Records a lock that another thread of the client passed on without Redis: the key
	 * keeps its owner token, and the lease counts from its last confirmed renewal.
	 */
	RedisLockHandle passed(String key, Baton baton, Duration lease, LockOptions options, long startNanos) {
		RedisLockHandle handle = new RedisLockHandle(this.ending, this.extension, key, baton.token(),
				baton.fencingToken(), lease, options, baton.lease(), true);
		register(handle, startNanos);
		return handle;
	}

	/**
	 * Has Redis confirm on the calling thread that the key still holds the hold's owner
	 * token ({@link LeaseRenewer#confirmNow}).
	 * @return whether it does; if not, the holds of the token were marked lost
	 * @throws org.springframework.dao.DataAccessException if Redis did not answer
	 */
	boolean confirmNow(RedisLockHandle handle) {
		return this.renewer.confirmNow(handle);
	}

	private void register(RedisLockHandle handle, long startNanos) {
		this.held.add(handle);
		if (handle.isAutoRenewing()) {
			this.renewer.register(handle);
		}
		else {
			this.renewer.watchDeadline(handle);
		}
		this.events.acquired(handle, startNanos);
	}

}
