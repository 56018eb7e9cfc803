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

package dev.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The naive semaphore of the controls: a plain counter, {@code INCR <key>:count}, given
 * back with {@code DECR} when it went above the permits (then retried every 5 ms) and on
 * release; a fencing token from {@code INCR blog:fence}. No lease: a holder that dies
 * keeps its permit.
 */
final class NaiveSemaphore implements WorkerLock {

	private final StringRedisTemplate redis;

	private final int permits;

	NaiveSemaphore(StringRedisTemplate redis, int permits) {
		this.redis = redis;
		this.permits = permits;
	}

	@Override
	public Held take(List<String> keys, @Nullable Duration lease, Duration wait) {
		String countKey = keys.get(0) + ":count";
		WorkerLock.spin(keys.get(0), wait, () -> {
			Long count = this.redis.opsForValue().increment(countKey);
			if (count != null && count <= this.permits) {
				return true;
			}
			this.redis.opsForValue().decrement(countKey);
			return false;
		});
		Long fence = this.redis.opsForValue().increment(BlogLock.FENCE_KEY);
		long token = (fence != null) ? fence : 0;
		AtomicBoolean released = new AtomicBoolean();
		return new Held() {

			@Override
			public long token(String key) {
				return token;
			}

			@Override
			public boolean isLeaseLost() {
				return false;
			}

			@Override
			public boolean isReleased() {
				return released.get();
			}

			@Override
			public void release() {
				released.set(true);
				NaiveSemaphore.this.redis.opsForValue().decrement(countKey);
			}

		};
	}

	@Override
	public boolean exclusive() {
		return false;
	}

}
