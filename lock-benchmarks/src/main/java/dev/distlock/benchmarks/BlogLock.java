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
import java.util.List;
import java.util.UUID;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The lock from the blog posts: {@code SET key token NX PX} retried after
 * {@code sleep(100)}, released with a Lua compare-and-delete. No renewal.
 */
final class BlogLock implements ExplicitContender {

	private static final RedisScript<Long> RELEASE = RedisScript.of(
			"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
			Long.class);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration LONG_LEASE = Duration.ofMinutes(10);

	private final StringRedisTemplate redis;

	BlogLock(StringRedisTemplate redis) {
		this.redis = redis;
	}

	@Override
	public String name() {
		return "blog: SET NX PX + sleep(100)";
	}

	@Override
	public Held acquire(String key) {
		return acquire(key, LEASE);
	}

	@Override
	public Held acquireLongHeld(String key) {
		return acquire(key, LONG_LEASE);
	}

	@Override
	public String longLease() {
		return "no auto-renewal (fixed " + LONG_LEASE.toMinutes() + " min lease)";
	}

	private Held acquire(String key, Duration lease) {
		String token = UUID.randomUUID().toString();
		while (!Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key, token, lease))) {
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + key, ex);
			}
		}
		return () -> this.redis.execute(RELEASE, List.of(key), token);
	}

}
