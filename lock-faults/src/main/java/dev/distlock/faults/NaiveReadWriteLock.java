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
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The naive read-write lock of the controls, as blog posts build one on {@code SET} and
 * {@code INCR}: a writer sets {@code <key>:writer} with {@code NX PX lease}, then waits
 * until {@code <key>:readers} is zero, and takes a fencing token from
 * {@code INCR blog:fence}; a reader waits until there is no writer, then
 * {@code INCR <key>:readers} (and gives it back if a writer came meanwhile), and has no
 * token. Release: compare-and-delete the writer key, {@code DECR} the readers. No lease
 * for readers, no renewal, no notion of a lost lease.
 */
final class NaiveReadWriteLock implements WorkerLock {

	private static final RedisScript<Long> RELEASE = RedisScript.of(
			"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
			Long.class);

	private final StringRedisTemplate redis;

	private final boolean write;

	NaiveReadWriteLock(StringRedisTemplate redis, boolean write) {
		this.redis = redis;
		this.write = write;
	}

	@Override
	public Held take(List<String> keys, @Nullable Duration lease, Duration wait) {
		String key = keys.get(0);
		String writerKey = key + ":writer";
		String readersKey = key + ":readers";
		Runnable release;
		long token;
		if (this.write) {
			String owner = UUID.randomUUID().toString();
			Duration leaseTime = (lease != null) ? lease : Duration.ofSeconds(30);
			WorkerLock.spin(key, wait,
					() -> Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(writerKey, owner, leaseTime)));
			WorkerLock.spin(key, wait, () -> readers(readersKey) <= 0);
			Long fence = this.redis.opsForValue().increment(BlogLock.FENCE_KEY);
			token = (fence != null) ? fence : 0;
			release = () -> this.redis.execute(RELEASE, List.of(writerKey), owner);
		}
		else {
			WorkerLock.spin(key, wait, () -> {
				if (Boolean.TRUE.equals(this.redis.hasKey(writerKey))) {
					return false;
				}
				this.redis.opsForValue().increment(readersKey);
				if (Boolean.TRUE.equals(this.redis.hasKey(writerKey))) {
					this.redis.opsForValue().decrement(readersKey);
					return false;
				}
				return true;
			});
			token = 0;
			release = () -> this.redis.opsForValue().decrement(readersKey);
		}
		AtomicBoolean released = new AtomicBoolean();
		return new Held() {

			@Override
			public long token(String ignored) {
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
				release.run();
			}

		};
	}

	@Override
	public boolean exclusive() {
		return this.write;
	}

	private long readers(String readersKey) {
		String value = this.redis.opsForValue().get(readersKey);
		return (value != null) ? Long.parseLong(value) : 0;
	}

}
