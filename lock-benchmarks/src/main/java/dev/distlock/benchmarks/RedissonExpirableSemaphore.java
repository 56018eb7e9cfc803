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

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RPermitExpirableSemaphore}: {@code trySetPermits(n)} once per key,
 * then {@code acquire(leaseTime)}, which returns the permit's id, and
 * {@code release(id)}. Each permit has its own lease, fixed (Redisson renews none), so a
 * holder that dies gives its permit back when the lease ends.
 */
final class RedissonExpirableSemaphore implements SharedLockContender {

	static final String NAME = "Redisson RPermitExpirableSemaphore";

	/** The same length as distlock's and the watchdog's lease, not renewed. */
	static final Duration LEASE = Duration.ofSeconds(30);

	private final RedissonClient redisson;

	RedissonExpirableSemaphore(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void prepare(String key, int permits) {
		if (!this.redisson.getPermitExpirableSemaphore(key).trySetPermits(permits)) {
			throw new IllegalStateException("The permits of " + key + " were set already");
		}
	}

	@Override
	public ExplicitContender.Held acquire(String key, Access access) {
		if (access != Access.PERMIT) {
			throw new IllegalArgumentException(NAME + " has only permits");
		}
		RPermitExpirableSemaphore semaphore = this.redisson.getPermitExpirableSemaphore(key);
		String id;
		try {
			id = semaphore.acquire(LEASE.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a permit of " + key, ex);
		}
		return () -> semaphore.release(id);
	}

}
