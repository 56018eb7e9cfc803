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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.monitor.ReleaseSubscriptionStatus;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client that starts while Redis is down subscribes to its release channel once Redis
 * is up, so that its waiters are handed locks by message, not left polling for good.
 */
class SubscriptionAtStartupTests {

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	@Test
	void subscriptionIsRetriedUntilRedisIsUp() throws Exception {
		REDIS.server().stop();
		LettuceConnectionFactory connectionFactory = TestRedis.connectionFactory(REDIS.server());
		RedisLockClient client = RedisLockClient.builder(TestRedis.template(connectionFactory))
			.releaseMessages(true)
			.build();
		ReleaseMessageWaiter waiter = client.releaseWaiter();
		ReleaseSubscriptionStatus subscription = client.monitor().releaseSubscription().orElseThrow();
		try {
			client.start();
			assertThat(subscription.isSubscribed()).as("Redis is down").isFalse();
			REDIS.server().start();
			await().atMost(Duration.ofSeconds(5)).until(subscription::isSubscribed);
			try (LockFixture holderSide = LockFixture.start(REDIS.server(), Duration.ofSeconds(30))) {
				String key = TestRedis.uniqueKey("startup");
				LockHandle held = holderSide.client.lock(key, LockOptions.renewing(Duration.ZERO));
				CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
					.supplyAsync(() -> client.tryLock(key, LockOptions.renewing(Duration.ofSeconds(10))));
				await().until(() -> waiter.waiting() == 1);
				held.release();
				LockHandle handedOver = waiting.get(10, TimeUnit.SECONDS).orElseThrow();
				assertThat(waiter.handOvers()).as("handed the lock by message").isEqualTo(1);
				handedOver.release();
			}
		}
		finally {
			client.close();
			connectionFactory.destroy();
		}
	}

}
