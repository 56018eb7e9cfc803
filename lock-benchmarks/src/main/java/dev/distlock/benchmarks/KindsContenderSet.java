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

import java.util.LinkedHashMap;
import java.util.Map;

import org.redisson.api.RedissonClient;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;

/**
 * The contenders of the kinds scenarios in one worker JVM, on one Redis server:
 * distlock's auto-configured {@link LockClient} (a Boot context built by
 * {@link DistlockFactory}, so the same properties as the other scenarios) and Redisson's
 * read-write lock and two semaphores on one Redisson client; and the template the work
 * under the locks uses.
 */
final class KindsContenderSet implements AutoCloseable {

	static final String DISTLOCK = "distlock";

	static final String REDISSON_READ_WRITE = "redisson-rw";

	static final String REDISSON_SEMAPHORE = "redisson-semaphore";

	static final String REDISSON_EXPIRABLE_SEMAPHORE = "redisson-expirable";

	/** Display names by id. */
	static final Map<String, String> NAMES = Map.of(DISTLOCK, DistlockSharedLock.NAME, REDISSON_READ_WRITE,
			RedissonReadWriteLock.NAME, REDISSON_SEMAPHORE, RedissonSemaphore.NAME, REDISSON_EXPIRABLE_SEMAPHORE,
			RedissonExpirableSemaphore.NAME);

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate redis;

	private final RedissonClient redisson;

	private final Map<String, SharedLockContender> contenders = new LinkedHashMap<>();

	/**
	 * Creates every contender.
	 * @param target the Redis server
	 * @param permits the permits distlock asks for on every acquire of a permit
	 */
	KindsContenderSet(RedisTarget target, int permits) {
		this.context = DistlockFactory.builder(target).run();
		this.redis = new StringRedisTemplate(this.context.getBean(RedisConnectionFactory.class));
		this.redisson = target.redisson();
		this.contenders.put(DISTLOCK, new DistlockSharedLock(this.context.getBean(LockClient.class), permits));
		this.contenders.put(REDISSON_READ_WRITE, new RedissonReadWriteLock(this.redisson));
		this.contenders.put(REDISSON_SEMAPHORE, new RedissonSemaphore(this.redisson));
		this.contenders.put(REDISSON_EXPIRABLE_SEMAPHORE, new RedissonExpirableSemaphore(this.redisson));
	}

	SharedLockContender get(String id) {
		SharedLockContender contender = this.contenders.get(id);
		if (contender == null) {
			throw new IllegalArgumentException("No contender " + id);
		}
		return contender;
	}

	StringRedisTemplate redis() {
		return this.redis;
	}

	@Override
	public void close() {
		this.redisson.shutdown();
		this.context.close();
	}

}
