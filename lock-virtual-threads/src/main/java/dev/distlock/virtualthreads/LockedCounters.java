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

package dev.distlock.virtualthreads;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;

/**
 * Counters in Redis incremented by a non-atomic read-modify-write ({@code GET}, then
 * {@code SET}) under a distributed lock per counter, so that any two holders at once lose
 * an increment; each holder also counts itself in and out of an {@code inside} key of the
 * lock, so that an overlap with a holder of any process is counted, not only seen as a
 * short count.
 */
public class LockedCounters {

	/** How long a caller waits for a lock at most: every caller of a test gets it. */
	public static final Duration WAIT = Duration.ofMinutes(2);

	private final StringRedisTemplate redis;

	private final LockClient locks;

	private final AtomicLong overlaps = new AtomicLong();

	LockedCounters(StringRedisTemplate redis, LockClient locks) {
		this.redis = redis;
		this.locks = locks;
	}

	/**
	 * Increments a counter under {@code @DistributedLock}.
	 * @param name the counter
	 */
	@DistributedLock(key = "'vt:' + #name", waitTime = "2m")
	public void incrementAnnotated(String name) {
		increment(name);
	}

	/**
	 * Increments a counter under the same lock, taken with {@link LockClient#execute}.
	 * @param name the counter
	 */
	public void incrementProgrammatic(String name) {
		this.locks.execute("vt:" + name, this.locks.defaultOptions().withWaitTime(WAIT), () -> {
			increment(name);
			return null;
		});
	}

	/**
	 * Returns a counter's value in Redis.
	 * @param name the counter
	 * @return the value, 0 if never incremented
	 */
	public long value(String name) {
		String value = this.redis.opsForValue().get(countKey(name));
		return (value != null) ? Long.parseLong(value) : 0;
	}

	/** Returns how many increments of this JVM found another holder inside the lock. */
	public long overlaps() {
		return this.overlaps.get();
	}

	private void increment(String name) {
		String inside = "vt:inside:" + name;
		if (!Objects.equals(this.redis.opsForValue().increment(inside), 1L)) {
			this.overlaps.incrementAndGet();
		}
		long value = value(name);
		this.redis.opsForValue().set(countKey(name), Long.toString(value + 1));
		this.redis.opsForValue().decrement(inside);
	}

	private static String countKey(String name) {
		return "vt:count:" + name;
	}

}
