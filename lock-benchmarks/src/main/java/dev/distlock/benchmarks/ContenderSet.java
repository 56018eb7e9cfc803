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

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.redisson.api.RedissonClient;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Every contender of one process, in table order, on one Redis server or cluster, and the
 * Redis template the harness itself uses (critical sections, counters, {@code INFO}).
 * Only the contenders asked for are created, so that a process measuring one of them
 * carries no other library's threads.
 */
final class ContenderSet implements AutoCloseable {

	static final String FLOOR = "floor";

	/** Names in table order. */
	static final List<String> ALL = List.of(FLOOR, "distlock-client", "distlock-annotated", "redisson", "si-spin",
			"si-pubsub", "blog");

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate redis;

	private final @Nullable RedissonClient redisson;

	private final List<SpringIntegrationLock> springIntegrationLocks = new ArrayList<>();

	private final List<ConfigurableApplicationContext> otherContexts = new ArrayList<>();

	private final @Nullable ThreadPoolTaskScheduler renewalScheduler;

	private final List<Contender> contenders = new ArrayList<>();

	private final List<String> names = new ArrayList<>();

	private final List<String> leftOut = new ArrayList<>();

	/**
	 * Returns the ids of every contender a target can have, in table order: on a cluster
	 * also {@link ReplicaAcknowledgedDistlock#ID}, which may be left out when created.
	 * @param target the Redis
	 * @return the ids
	 */
	static List<String> ids(RedisTarget target) {
		List<String> ids = new ArrayList<>(ALL);
		if (target.cluster()) {
			ids.add(ids.indexOf("distlock-annotated") + 1, ReplicaAcknowledgedDistlock.ID);
		}
		return ids;
	}

	/**
	 * Creates the contenders.
	 * @param target the Redis server or cluster
	 * @param wanted ids of the contenders to create
	 * @param renewSpringIntegration whether Spring Integration's registries get a renewal
	 * scheduler; it renews every lock right after acquiring it and every third of the
	 * lease after, and interrupts the renewal in flight when the lock is released, so it
	 * is only set where locks are held for long (scenario 4), as most applications leave
	 * it unset
	 */
	ContenderSet(RedisTarget target, Set<String> wanted, boolean renewSpringIntegration) {
		this.context = DistlockFactory.builder(target).run();
		RedisConnectionFactory connectionFactory = this.context.getBean(RedisConnectionFactory.class);
		this.redis = new StringRedisTemplate(connectionFactory);
		boolean si = wanted.contains("si-spin") || wanted.contains("si-pubsub");
		this.renewalScheduler = (si && renewSpringIntegration) ? SpringIntegrationLock.renewalScheduler() : null;
		this.redisson = wanted.contains("redisson") ? target.redisson() : null;
		for (String name : ids(target)) {
			if (wanted.contains(name)) {
				Contender contender = create(name, target, connectionFactory);
				if (contender != null) {
					this.contenders.add(contender);
					this.names.add(name);
				}
			}
		}
	}

	private @Nullable Contender create(String name, RedisTarget target, RedisConnectionFactory connectionFactory) {
		return switch (name) {
			case FLOOR -> new PingFloor(this.redis, target.cluster());
			case "distlock-client" -> DistlockFactory.client(this.context, DistlockFactory.CLIENT_NAME);
			case "distlock-annotated" -> DistlockFactory.annotated(this.context);
			case ReplicaAcknowledgedDistlock.ID ->
				ReplicaAcknowledgedDistlock.create(target, this.otherContexts::add, this.leftOut::add);
			case "redisson" -> new RedissonLock(this.redisson);
			case "si-spin" -> springIntegration(connectionFactory, RedisLockType.SPIN_LOCK);
			case "si-pubsub" -> springIntegration(connectionFactory, RedisLockType.PUB_SUB_LOCK);
			case "blog" -> new BlogLock(this.redis);
			default -> throw new IllegalArgumentException("Unknown contender " + name);
		};
	}

	private Contender springIntegration(RedisConnectionFactory connectionFactory, RedisLockType type) {
		SpringIntegrationLock lock = SpringIntegrationLock.create(connectionFactory, type, this.renewalScheduler);
		this.springIntegrationLocks.add(lock);
		return lock;
	}

	StringRedisTemplate redis() {
		return this.redis;
	}

	List<Contender> contenders() {
		return this.contenders;
	}

	/** Ids of the contenders created, in table order. */
	List<String> created() {
		return this.names;
	}

	/** Why contenders asked for were left out, one sentence each. */
	List<String> leftOut() {
		return this.leftOut;
	}

	Contender get(String name) {
		int index = this.names.indexOf(name);
		if (index < 0) {
			throw new IllegalArgumentException("Contender " + name + " was not created");
		}
		return this.contenders.get(index);
	}

	@Override
	public void close() {
		this.springIntegrationLocks.forEach(SpringIntegrationLock::destroy);
		if (this.renewalScheduler != null) {
			this.renewalScheduler.shutdown();
		}
		if (this.redisson != null) {
			this.redisson.shutdown();
		}
		this.otherContexts.forEach(ConfigurableApplicationContext::close);
		this.context.close();
	}

}
