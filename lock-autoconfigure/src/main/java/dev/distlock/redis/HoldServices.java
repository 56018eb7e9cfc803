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

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * What a {@link ReactiveRedisLockClient} shares with the blocking client it is built on,
 * so that both hold locks of one client: the commands and background releases, the owner
 * tokens, the registry of holds and their events, the renewer, the list of waiting
 * callers, and the waiter that receives hand-over messages.
 *
 * @param commands the lock commands
 * @param pending the background releases
 * @param tokens the owner tokens of the client
 * @param held the holds of the client
 * @param events the events of the client
 * @param renewer the renewer of leases
 * @param grants turns grants into holds
 * @param waiting the callers of the client that wait for a lock
 * @param releaseWaiter the waiter told of hand-overs, or null if waiters only back off
 * @param renewalLease the lease of auto-renewing holds
 */
record HoldServices(RedisLockCommands commands, PendingReleases pending, OwnerTokens tokens, HeldLocks held,
		LockEvents events, LeaseRenewer<RedisLockHandle> renewer, LockGrants grants, WaitingAcquirers waiting,
		@Nullable ReleaseMessageWaiter releaseWaiter, Duration renewalLease) {
}
