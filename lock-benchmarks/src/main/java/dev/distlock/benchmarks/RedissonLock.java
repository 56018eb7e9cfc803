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

package dev.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RLock} with its watchdog lease ({@code lock()} without a lease time:
 * 30 s, renewed every 10 s while held), waiters woken by pub/sub.
 */
final class RedissonLock extends JavaLockContender {

	private final RedissonClient redisson;

	RedissonLock(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return "Redisson RLock";
	}

	@Override
	Lock lockFor(String key) {
		return this.redisson.getLock(key);
	}

	@Override
	public String longLease() {
		return "watchdog 30 s, renewed every 10 s";
	}

}
