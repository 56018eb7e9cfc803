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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The naive lock of the controls: {@code SET key token NX PX lease} retried every 5 ms, a
 * plain {@code INCR blog:fence} as its fencing token, release by a Lua
 * compare-and-delete, no renewal and no notion of a lost lease. Several keys are taken
 * one after the other in the order given, as a naive caller does.
 */
public final class BlogLock implements WorkerLock {

	private static final RedisScript<Long> RELEASE = RedisScript.of(
			"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
			Long.class);

	/** The counter the blog lock takes its fencing tokens from. */
	public static final String FENCE_KEY = "blog:fence";

	private final StringRedisTemplate redis;

	private final Duration lease;

	/**
	 * Creates the lock.
	 * @param redis the template to reach Redis with
	 * @param lease the fixed lease
	 */
	public BlogLock(StringRedisTemplate redis, Duration lease) {
		this.redis = redis;
		this.lease = lease;
	}

	/**
	 * Spins until the lock is acquired, runs the body with a token from {@code INCR},
	 * releases.
	 * @param key the lock key
	 * @param body what to run, given the token
	 */
	public void run(String key, LongConsumer body) {
		String owner = UUID.randomUUID().toString();
		while (!Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key, owner, this.lease))) {
			Pause.millis(5);
		}
		try {
			body.accept(nextToken());
		}
		finally {
			this.redis.execute(RELEASE, List.of(key), owner);
		}
	}

	@Override
	public Held take(List<String> keys, @Nullable Duration lease, Duration wait) {
		Duration leaseTime = (lease != null) ? lease : this.lease;
		String owner = UUID.randomUUID().toString();
		Map<String, Long> tokens = new HashMap<>();
		List<String> taken = new ArrayList<>();
		try {
			for (String key : keys) {
				WorkerLock.spin(key, wait,
						() -> Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key, owner, leaseTime)));
				taken.add(key);
				tokens.put(key, nextToken());
			}
		}
		catch (RuntimeException ex) {
			taken.forEach((key) -> this.redis.execute(RELEASE, List.of(key), owner));
			throw ex;
		}
		AtomicBoolean released = new AtomicBoolean();
		return new Held() {

			@Override
			public long token(String key) {
				return tokens.get(key);
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
				taken.forEach((key) -> BlogLock.this.redis.execute(RELEASE, List.of(key), owner));
			}

		};
	}

	@Override
	public boolean exclusive() {
		return true;
	}

	private long nextToken() {
		Long token = this.redis.opsForValue().increment(FENCE_KEY);
		return (token != null) ? token : 0;
	}

}
