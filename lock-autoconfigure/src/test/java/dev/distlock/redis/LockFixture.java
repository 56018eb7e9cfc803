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
import java.util.function.Consumer;
import java.util.function.Function;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.testing.TestRedis;

import static org.awaitility.Awaitility.await;

/**
 * A lock client wired as the auto-configuration wires it (queued hand-over by release
 * messages, auto-renewal, local passes between its threads), on its own connection to a
 * test server.
 */
final class LockFixture implements AutoCloseable {

	/**
	 * The keyspace of a client without a key prefix on a single server, as fixtures use
	 * it.
	 */
	static final LockKeyspace KEYSPACE = new LockKeyspace("", false, RedisLockClientBuilder.DEFAULT_MAX_KEY_LENGTH);

	final LettuceConnectionFactory connectionFactory;

	final StringRedisTemplate redis;

	/**
	 * The client's release message waiter; null if the customizer turned release messages
	 * off.
	 */
	final ReleaseMessageWaiter waiter;

	final RedisLockClient client;

	private LockFixture(RedisTestServer server, Duration renewalLease, int maxLocalPasses, LockListener... listeners) {
		this(server, TestRedis::template, (builder) -> {
			builder.renewalLease(renewalLease).maxLocalPasses(maxLocalPasses);
			for (LockListener listener : listeners) {
				builder.listener(listener);
			}
		});
	}

	private LockFixture(RedisTestServer server, Function<LettuceConnectionFactory, StringRedisTemplate> template,
			Consumer<RedisLockClientBuilder> customizer) {
		this.connectionFactory = TestRedis.connectionFactory(server);
		this.redis = template.apply(this.connectionFactory);
		RedisLockClientBuilder builder = RedisLockClient.builder(this.redis)
			.releaseMessages(true)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)));
		customizer.accept(builder);
		this.client = builder.build();
		this.client.start();
		this.waiter = this.client.releaseWaiter();
		this.client.monitor()
			.releaseSubscription()
			.ifPresent((subscription) -> await().atMost(Duration.ofSeconds(10)).until(subscription::isSubscribed));
	}

	static LockFixture start(RedisTestServer server, Duration renewalLease, LockListener... listeners) {
		return new LockFixture(server, renewalLease, RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES, listeners);
	}

	/**
	 * Starts a fixture whose client the customizer may change (its waiters are handed
	 * locks over by release messages unless the customizer turns them off).
	 */
	static LockFixture start(RedisTestServer server, Consumer<RedisLockClientBuilder> customizer) {
		return new LockFixture(server, TestRedis::template, customizer);
	}

	/**
	 * Starts a fixture whose client uses the template made on the fixture's connection
	 * factory (the fixture's {@link #redis} too), and that the customizer may change.
	 */
	static LockFixture start(RedisTestServer server, Function<LettuceConnectionFactory, StringRedisTemplate> template,
			Consumer<RedisLockClientBuilder> customizer) {
		return new LockFixture(server, template, customizer);
	}

	static LockFixture start(RedisTestServer server, Duration renewalLease, int maxLocalPasses) {
		return new LockFixture(server, renewalLease, maxLocalPasses);
	}

	@Override
	public void close() {
		this.client.close();
		this.connectionFactory.destroy();
	}

}
