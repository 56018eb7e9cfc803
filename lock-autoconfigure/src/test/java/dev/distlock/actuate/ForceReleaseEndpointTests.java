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

package dev.distlock.actuate;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockLeaseLostException;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Force release through the {@code distlock} endpoint, once enabled: only locks this
 * instance holds, whose holders then learn that they lost the lease.
 */
@SpringBootTest(classes = ActuatorTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"management.endpoints.web.exposure.include=distlock", "distlock.endpoint.force-release.enabled=true" })
class ForceReleaseEndpointTests extends ActuatorApplicationTests {

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void forceReleaseDeletesALockOfThisInstanceAndItsHolderLearnsItWasLost() {
		String id = TestRedis.uniqueKey("forced");
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> this.jobs.hold(id, () -> {
			entered.countDown();
			ActuatorTestApplication.await(proceed);
		}));
		ActuatorTestApplication.await(entered);
		ActuatorHttp.Response response = new ActuatorHttp(this.port).delete("/actuator/distlock/job:" + id);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.<String>json("$.key")).isEqualTo("job:" + id);
		assertThat(response.<Boolean>json("$.released")).isTrue();
		assertThat(this.redis.hasKey("job:" + id)).isFalse();
		proceed.countDown();
		assertThatExceptionOfType(CompletionException.class).isThrownBy(holder::join)
			.withCauseInstanceOf(LockLeaseLostException.class);
	}

	@Test
	void locksOfOtherInstancesAreNeverForceReleased() throws Exception {
		String key = TestRedis.uniqueKey("elsewhere");
		try (HeldLock held = HeldLock.elsewhere(otherInstance, key)) {
			String token = this.redis.opsForValue().get(key);
			ActuatorHttp.Response response = new ActuatorHttp(this.port).delete("/actuator/distlock/" + key);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.<Boolean>json("$.released")).isFalse();
			assertThat(this.redis.opsForValue().get(key)).isEqualTo(token);
			assertThat(held.handle().isLeaseLost()).isFalse();
		}
	}

}
