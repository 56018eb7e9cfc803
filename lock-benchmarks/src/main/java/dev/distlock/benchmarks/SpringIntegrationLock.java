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
import java.util.Locale;
import java.util.concurrent.locks.Lock;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Spring Integration's {@link RedisLockRegistry} in one of its two modes. Threads of one
 * JVM queue on a local lock per key before they touch Redis. Held locks are renewed by
 * the registry's renewal scheduler every third of {@code expireAfter}.
 */
final class SpringIntegrationLock extends JavaLockContender {

	/**
	 * The lease, the same as Redisson's watchdog so that both renew every 10 s where
	 * renewed.
	 */
	private static final Duration EXPIRE_AFTER = Duration.ofSeconds(30);

	private final RedisLockRegistry registry;

	private final RedisLockRegistry.RedisLockType type;

	private final String longLease;

	private SpringIntegrationLock(RedisLockRegistry registry, RedisLockRegistry.RedisLockType type, String longLease) {
		this.registry = registry;
		this.type = type;
		this.longLease = longLease;
	}

	/**
	 * Creates a registry of its own on the connection factory (one server or a cluster).
	 * @param connectionFactory the connection factory
	 * @param type the lock type
	 * @param renewalScheduler the registry's renewal scheduler, {@code null} for none
	 * @return the contender
	 */
	static SpringIntegrationLock create(RedisConnectionFactory connectionFactory, RedisLockRegistry.RedisLockType type,
			@Nullable ThreadPoolTaskScheduler renewalScheduler) {
		Duration expireAfter = EXPIRE_AFTER;
		RedisLockRegistry registry = new RedisLockRegistry(connectionFactory,
				"si-" + type.name().toLowerCase(Locale.ROOT), expireAfter);
		registry.setRedisLockType(type);
		String lease = "expireAfter " + expireAfter.toSeconds() + " s, not renewed";
		if (renewalScheduler != null) {
			registry.setRenewalTaskScheduler(renewalScheduler);
			lease = "expireAfter " + expireAfter.toSeconds() + " s, renewed every " + expireAfter.toSeconds() / 3
					+ " s (renewal scheduler, 1 thread)";
		}
		return new SpringIntegrationLock(registry, type, lease);
	}

	static ThreadPoolTaskScheduler renewalScheduler() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setThreadNamePrefix("si-lock-renewal-");
		scheduler.initialize();
		return scheduler;
	}

	void destroy() {
		this.registry.destroy();
	}

	@Override
	public String name() {
		return (this.type == RedisLockRegistry.RedisLockType.SPIN_LOCK) ? "Spring Integration SPIN_LOCK"
				: "Spring Integration PUB_SUB_LOCK";
	}

	@Override
	Lock lockFor(String key) {
		return this.registry.obtain(key);
	}

	@Override
	public String longLease() {
		return this.longLease;
	}

}
