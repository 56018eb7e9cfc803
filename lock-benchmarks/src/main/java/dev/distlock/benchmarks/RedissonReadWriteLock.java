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

import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RReadWriteLock}: {@code readLock().lock()} or
 * {@code writeLock().lock()} with the watchdog lease (30 s, renewed every 10 s while
 * held, as distlock's auto-renewed lease), waiters woken by pub/sub.
 */
final class RedissonReadWriteLock implements SharedLockContender {

	static final String NAME = "Redisson RReadWriteLock";

	private final RedissonClient redisson;

	RedissonReadWriteLock(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public ExplicitContender.Held acquire(String key, Access access) {
		RReadWriteLock readWrite = this.redisson.getReadWriteLock(key);
		RLock lock = switch (access) {
			case READ -> readWrite.readLock();
			case WRITE -> readWrite.writeLock();
			case PERMIT -> throw new IllegalArgumentException(NAME + " has no permits");
		};
		lock.lock();
		return lock::unlock;
	}

}
