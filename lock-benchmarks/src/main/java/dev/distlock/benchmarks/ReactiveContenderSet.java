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

import java.util.List;

import reactor.core.publisher.Mono;

import org.redisson.api.RedissonClient;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.ReactiveRedisLockClient;
import dev.distlock.redis.RedisLockClient;

/**
 * The reactive contenders, in table order, on one Redis server: the floor (a reactive
 * {@code PING} before and after the work), distlock's {@link ReactiveLockClient} and
 * Redisson's {@code RLockReactive}; and the reactive template the harness does its work
 * with. distlock's reactive client is built on the auto-configured
 * {@link RedisLockClient} of the same Boot context as the blocking contenders (so the
 * same properties, see {@link DistlockFactory}), with a reactive template on Boot's
 * Lettuce connection factory.
 */
final class ReactiveContenderSet implements AutoCloseable {

	static final String FLOOR_NAME = "floor: 2×PING, reactive";

	static final String DISTLOCK_NAME = "distlock ReactiveLockClient";

	private final ConfigurableApplicationContext context;

	private final ReactiveStringRedisTemplate reactiveRedis;

	private final StringRedisTemplate redis;

	private final RedissonClient redisson;

	private final List<ReactiveContender> contenders;

	ReactiveContenderSet(RedisTarget target) {
		this.context = DistlockFactory.builder(target).run();
		LettuceConnectionFactory connectionFactory = this.context.getBean(LettuceConnectionFactory.class);
		this.reactiveRedis = new ReactiveStringRedisTemplate(connectionFactory);
		this.redis = new StringRedisTemplate(connectionFactory);
		this.redisson = target.redisson();
		ReactiveLockClient distlock = new ReactiveRedisLockClient(this.context.getBean(RedisLockClient.class),
				this.reactiveRedis);
		this.contenders = List.of(floor(this.reactiveRedis), distlock(distlock),
				new RedissonReactiveLock(this.redisson.reactive()));
	}

	private static ReactiveContender floor(ReactiveStringRedisTemplate redis) {
		Mono<String> ping = redis.execute(ReactiveRedisConnection::ping).next();
		return new ReactiveContender() {

			@Override
			public String name() {
				return FLOOR_NAME;
			}

			@Override
			public boolean isLock() {
				return false;
			}

			@Override
			public <T> Mono<T> withLock(String key, Mono<T> work) {
				return ping.then(work).flatMap((result) -> ping.thenReturn(result));
			}

		};
	}

	private static ReactiveContender distlock(ReactiveLockClient client) {
		LockOptions options = client.defaultOptions();
		return new ReactiveContender() {

			@Override
			public String name() {
				return DISTLOCK_NAME;
			}

			@Override
			public <T> Mono<T> withLock(String key, Mono<T> work) {
				return client.withLock(key, options, work);
			}

		};
	}

	List<ReactiveContender> contenders() {
		return this.contenders;
	}

	ReactiveStringRedisTemplate reactiveRedis() {
		return this.reactiveRedis;
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
