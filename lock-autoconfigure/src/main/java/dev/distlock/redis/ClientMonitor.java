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

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.distlock.redis.monitor.EvictionPolicy;
import dev.distlock.redis.monitor.HeldLockInfo;
import dev.distlock.redis.monitor.LockKeyState;
import dev.distlock.redis.monitor.LockWaiterInfo;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.redis.monitor.ReleaseSubscriptionStatus;
import dev.distlock.redis.monitor.ShardedSubscriptionState;

/**
 * The {@link RedisLockMonitor} of one {@link RedisLockClient}: reads its held locks and
 * waiting callers from memory, and asks Redis through its commands.
 */
final class ClientMonitor implements RedisLockMonitor {

	private final HeldLocks held;

	private final LockReleaser releaser;

	private final WaitingAcquirers waiting;

	private final KeyStateReader keyStates;

	private final ClientHealthChecks health;

	ClientMonitor(HeldLocks held, LockReleaser releaser, WaitingAcquirers waiting, KeyStateReader keyStates,
			ClientHealthChecks health) {
		this.held = held;
		this.releaser = releaser;
		this.waiting = waiting;
		this.keyStates = keyStates;
		this.health = health;
	}

	@Override
	public List<HeldLockInfo> heldLocks() {
		return this.held.held().stream().map(RedisLockHandle::info).toList();
	}

	@Override
	public List<LockWaiterInfo> waiters() {
		return this.waiting.snapshot();
	}

	@Override
	public LockKeyState keyState(String key) {
		return this.keyStates.read(key);
	}

	@Override
	public boolean forceRelease(String key) {
		return this.releaser.forceRelease(key);
	}

	@Override
	public Map<String, Boolean> checkScripts() {
		return this.health.checkScripts();
	}

	@Override
	public String address() {
		return this.health.address();
	}

	@Override
	public boolean isCluster() {
		return this.health.isCluster();
	}

	@Override
	public void checkLocking() {
		this.health.checkLocking();
	}

	@Override
	public List<EvictionPolicy> evictionPolicies() {
		return this.health.evictionPolicies();
	}

	@Override
	public Optional<ReleaseSubscriptionStatus> releaseSubscription() {
		return this.health.releaseSubscription();
	}

	@Override
	public Optional<ShardedSubscriptionState> shardedReleaseSubscription() {
		return this.health.shardedReleaseSubscription();
	}

	@Override
	public Optional<String> misconfiguration() {
		return this.health.misconfiguration();
	}

}
