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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.redis.messages.ReleaseMessageWaiter;

import static org.awaitility.Awaitility.await;

/**
 * One instance of an application whose lock client Spring Boot builds from the
 * {@code spring.data.redis.*} properties a user writes (cluster nodes, or a Sentinel
 * master and its Sentinels) and distlock's defaults, so that the client under test is
 * wired as on that deployment: cluster slots and sharded release channels on a cluster,
 * the one classic channel otherwise. Exposes the client's release message waiter, whose
 * hand-over count tells that a waiter was woken by a message.
 */
final class BootLockInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	final RedisLockClient client;

	final StringRedisTemplate redis;

	private BootLockInstance(ConfigurableApplicationContext context) {
		this.context = context;
		this.client = context.getBean(RedisLockClient.class);
		this.redis = context.getBean(StringRedisTemplate.class);
	}

	/**
	 * Starts an instance and waits until its classic release channel, if it has one, is
	 * subscribed (sharded channels are subscribed per slot while someone waits).
	 * @param properties the connection and further settings, {@code name=value}
	 * @return the running instance; close it after the test
	 */
	static BootLockInstance start(String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.data.redis.timeout=2s"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(all.toArray(String[]::new))
			.run();
		BootLockInstance instance = new BootLockInstance(context);
		try {
			instance.client.monitor()
				.releaseSubscription()
				.ifPresent((subscription) -> await().atMost(Duration.ofSeconds(10)).until(subscription::isSubscribed));
			return instance;
		}
		catch (RuntimeException | Error ex) {
			context.close();
			throw ex;
		}
	}

	/** The client's release message waiter. */
	ReleaseMessageWaiter waiter() {
		ReleaseMessageWaiter waiter = this.client.releaseWaiter();
		if (waiter == null) {
			throw new IllegalStateException("release messages are off");
		}
		return waiter;
	}

	/** The Redis key of a lock. */
	String lockKey(String key) {
		return this.client.keyspace().lockKey(key);
	}

	/** How many places the queue of a lock holds. */
	long queued(String key) {
		Long length = this.redis.opsForList().size(this.client.keyspace().queueKey(lockKey(key)));
		return (length != null) ? length : 0;
	}

	@Override
	public void close() {
		this.context.close();
	}

	/** Redis, AOP and distlock auto-configured, and nothing else. */
	@SpringBootConfiguration
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
			DistributedLockAutoConfiguration.class })
	static class Application {

	}

}
