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

package dev.distlock.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Writes the Redis state of a read-write lock or a semaphore with plain commands, as the
 * data model of shared locks fixes it: the lock key is a sorted set of the holders' owner
 * tokens ({@code r.}, {@code w.} or {@code s<N>.} and hex), scored with their lease
 * expiry in ms by the server's clock, and expires with the furthest lease; waiters have
 * entries {@code "<valid until ms> ..."} in the lock's waiters hash. For reading the
 * state back where no client takes shared locks.
 */
public final class SharedLockState {

	private final StringRedisTemplate redis;

	private final String key;

	private final List<String> written = new ArrayList<>();

	/**
	 * Starts the state of a key.
	 * @param redis the connection to write with
	 * @param key the lock's Redis key
	 */
	public SharedLockState(StringRedisTemplate redis, String key) {
		this.redis = redis;
		this.key = key;
	}

	/**
	 * Adds a holder whose lease ends after the given time, by the server's clock.
	 * @param token the holder's owner token
	 * @param leaseMillis its remaining lease in ms, negative for one that has ended
	 * @return this state
	 */
	public SharedLockState holder(String token, long leaseMillis) {
		long expiry = serverMillis() + leaseMillis;
		this.redis.opsForZSet().add(this.key, token, expiry);
		Long ttl = this.redis.getExpire(this.key, TimeUnit.MILLISECONDS);
		if (leaseMillis > 0 && (ttl == null || ttl < leaseMillis)) {
			this.redis.expire(this.key, Duration.ofMillis(leaseMillis));
		}
		return this;
	}

	/**
	 * Adds a waiter: its entry in the waiters hash and its place at the end of the queue
	 * list (the lock's queue key, named as the waiters key with {@code queue} in place of
	 * {@code waiters}).
	 * @param waitersKey the lock's waiters key
	 * @param token the waiter's owner token
	 * @param validMillis how long its place stays valid, negative for one that ran out
	 * @return this state
	 */
	public SharedLockState waiter(String waitersKey, String token, long validMillis) {
		long validUntil = serverMillis() + validMillis;
		this.redis.opsForHash().put(waitersKey, token, validUntil + " 2000 1 publish test:channel");
		this.redis.expire(waitersKey, Duration.ofSeconds(30));
		String queueKey = waitersKey.replaceFirst("waiters:", "queue:");
		this.redis.opsForList().rightPush(queueKey, token);
		this.redis.expire(queueKey, Duration.ofSeconds(30));
		this.written.add(queueKey);
		return this;
	}

	/**
	 * Deletes the key and the given other keys.
	 * @param others other keys written, such as the waiters key
	 */
	public void delete(String... others) {
		this.redis.delete(this.key);
		this.redis.delete(this.written);
		this.redis.delete(List.of(others));
	}

	private long serverMillis() {
		Long time = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		if (time == null) {
			throw new IllegalStateException("Redis did not answer TIME");
		}
		return time;
	}

}
