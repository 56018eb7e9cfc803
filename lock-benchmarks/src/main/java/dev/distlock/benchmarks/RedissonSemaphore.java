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

import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RSemaphore}: {@code trySetPermits(n)} once per key, then
 * {@code acquire()} and {@code release()}, waiters woken by pub/sub. Its permits have no
 * lease: a holder that dies keeps its permit for good.
 */
final class RedissonSemaphore implements SharedLockContender {

	static final String NAME = "Redisson RSemaphore";

	private final RedissonClient redisson;

	RedissonSemaphore(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void prepare(String key, int permits) {
		if (!this.redisson.getSemaphore(key).trySetPermits(permits)) {
			throw new IllegalStateException("The permits of " + key + " were set already");
		}
	}

	@Override
	public ExplicitContender.Held acquire(String key, Access access) {
		if (access != Access.PERMIT) {
			throw new IllegalArgumentException(NAME + " has only permits");
		}
		RSemaphore semaphore = this.redisson.getSemaphore(key);
		try {
			semaphore.acquire();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a permit of " + key, ex);
		}
		return semaphore::release;
	}

}
