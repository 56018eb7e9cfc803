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

package dev.distlock.redis.cohort;

import java.time.Duration;

import dev.distlock.redis.lease.Lease;
import dev.distlock.redis.protocol.RedisReachability;

/**
 * What a {@link LocalCohort} needs of a hold to pass its lock to the next thread of the
 * client: the key and owner token the lock is held with in Redis, its fencing token and
 * lease, its validity (shared with the next holder) and when Redis last confirmed it, and
 * whether it may pass the lock now.
 */
public interface PassableHold {

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	String key();

	/**
	 * Returns the owner token the lock is held with in Redis.
	 * @return the token
	 */
	String token();

	/**
	 * Returns the fencing token of this hold.
	 * @return the fencing token
	 */
	long fencingToken();

	/**
	 * Returns the lease of the lock.
	 * @return the lease
	 */
	Duration leaseTime();

	/**
	 * Returns the validity of the hold the lock passes to: it shares this hold's, since
	 * both hold the key with the same owner token.
	 * @return the validity the next holder takes over
	 */
	Lease leasePassedOn();

	/**
	 * Returns when the last acquire or renewal of the owner token that Redis confirmed
	 * was sent, for this hold or any other the lock passed through with the same token.
	 * @return the send time, by {@link System#nanoTime()}
	 */
	long confirmedSendNanos();

	/**
	 * Returns whether the lock may pass from this hold to another thread without Redis.
	 * Asked when a thread waits to be passed the lock, under the key's cohort monitor on
	 * a pass: it reads state, and takes no monitor and sends nothing.
	 * @param reachability what the client knows of Redis now
	 * @return whether it may pass locally
	 */
	boolean mayPassLocally(RedisReachability reachability);

	/**
	 * Returns whether this hold may still have the lock: its thread lives and its lease
	 * is neither lost nor run out.
	 * @return whether it holds healthily
	 */
	boolean isHoldingHealthily();

}
