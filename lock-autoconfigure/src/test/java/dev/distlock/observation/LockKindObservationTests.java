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

package dev.distlock.observation;

import java.time.Duration;

import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.distlock.LockClient;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

/**
 * The acquisition and hold {@link LockObservationDocumentation observations} carry the
 * kind and mode of the lock as low-cardinality key values, and the permits of a semaphore
 * only, for the Redis and the in-memory client alike.
 */
class LockKindObservationTests {

	private static final LockOptions OBSERVED = new LockOptions(Duration.ZERO, Duration.ofSeconds(30))
		.withName("observed");

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	@Test
	void redisClientObservesTheKindAndModeOfEachLock() {
		try (RedisLockClient client = RedisLockClient.builder(REDIS.template())
			.observationRegistry(this.registry)
			.build()) {
			assertKindsObserved(client);
		}
	}

	@Test
	void inMemoryClientObservesTheKindAndModeOfEachLock() {
		assertKindsObserved(InMemoryLockClient.builder().observationRegistry(this.registry).build());
	}

	private void assertKindsObserved(LockClient client) {
		assertObserved(client, OBSERVED, "exclusive", "exclusive");
		assertObserved(client, OBSERVED.withMode(LockMode.READ), "read-write", "read");
		assertObserved(client, OBSERVED.withMode(LockMode.WRITE), "read-write", "write");
		this.registry.clear();
		client.lock(TestRedis.uniqueKey("permits"), OBSERVED.withPermits(5)).release();
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsEqualTo(2)
			.forAllObservationsWithNameEqualTo("distlock.acquisition",
					(observation) -> observation.hasLowCardinalityKeyValue("kind", "semaphore")
						.hasLowCardinalityKeyValue("mode", "exclusive")
						.hasLowCardinalityKeyValue("permits", "5"))
			.forAllObservationsWithNameEqualTo("distlock.hold",
					(observation) -> observation.hasLowCardinalityKeyValue("kind", "semaphore")
						.hasLowCardinalityKeyValue("mode", "exclusive")
						.hasLowCardinalityKeyValue("permits", "5")
						.hasLowCardinalityKeyValue("outcome", "released"));
	}

	private void assertObserved(LockClient client, LockOptions options, String kind, String mode) {
		this.registry.clear();
		client.lock(TestRedis.uniqueKey(mode), options).release();
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsEqualTo(2)
			.forAllObservationsWithNameEqualTo("distlock.acquisition",
					(observation) -> observation.hasLowCardinalityKeyValue("name", "observed")
						.hasLowCardinalityKeyValue("kind", kind)
						.hasLowCardinalityKeyValue("mode", mode)
						.hasLowCardinalityKeyValue("outcome", "acquired")
						.doesNotHaveLowCardinalityKeyValueWithKey("permits"))
			.forAllObservationsWithNameEqualTo("distlock.hold",
					(observation) -> observation.hasLowCardinalityKeyValue("kind", kind)
						.hasLowCardinalityKeyValue("mode", mode)
						.hasLowCardinalityKeyValue("outcome", "released")
						.doesNotHaveLowCardinalityKeyValueWithKey("permits"));
	}

}
