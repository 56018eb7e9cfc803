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
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A key used as two kinds of lock fails with a {@link LockMisconfigurationException} that
 * names the key and both kinds, both ways round, and nothing is written: across clients
 * in Redis, within one thread before any round trip.
 */
class SharedKindMisuseTests {

	private static final LockOptions EXCLUSIVE = LockOptions.renewing(Duration.ZERO);

	private static final LockOptions READ = EXCLUSIVE.withMode(LockMode.READ);

	@RegisterExtension
	final TwoLockClients clients = new TwoLockClients();

	@Test
	void sharedAcquisitionOfAnExclusiveLockFailsAndWritesNothing() {
		String key = TestRedis.uniqueKey("kind-exclusive");
		try (LockHandle handle = this.clients.first().client.lock(key, EXCLUSIVE)) {
			String token = this.clients.first().redis.opsForValue().get(key);
			String counter = this.clients.first().redis.opsForValue().get(LockFixture.KEYSPACE.fenceKey(key));
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.second().client.tryLock(key, READ.withWaitTime(Duration.ofSeconds(1))))
				.withMessageContaining("key " + key + " is an exclusive lock, this call asks for a read lock");
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.second().client.tryLock(key, EXCLUSIVE.withPermits(2)))
				.withMessageContaining("is an exclusive lock, this call asks for a semaphore of 2 permits");
			assertThat(this.clients.first().redis.opsForValue().get(key)).isEqualTo(token);
			assertThat(this.clients.first().redis.opsForValue().get(LockFixture.KEYSPACE.fenceKey(key)))
				.isEqualTo(counter);
			assertThat(this.clients.first().redis.hasKey(LockFixture.KEYSPACE.queueKey(key))).isFalse();
		}
	}

	@Test
	void exclusiveAcquisitionOfASharedLockFailsAndWritesNothing() {
		String key = TestRedis.uniqueKey("kind-shared");
		try (LockHandle handle = this.clients.first().client.lock(key, READ)) {
			Set<String> members = this.clients.first().redis.opsForZSet().range(key, 0, -1);
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(
						() -> this.clients.second().client.tryLock(key, EXCLUSIVE.withWaitTime(Duration.ofSeconds(1))))
				.withMessageContaining("key " + key + " is a read-write lock, this call asks for an exclusive lock");
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.second().client.tryLock(key, EXCLUSIVE.withPermits(2)))
				.withMessageContaining("is a read-write lock, this call asks for a semaphore of 2 permits");
			assertThat(this.clients.first().redis.opsForZSet().range(key, 0, -1)).isEqualTo(members);
			assertThat(this.clients.first().redis.hasKey(LockFixture.KEYSPACE.queueKey(key))).isFalse();
		}
		String semaphore = TestRedis.uniqueKey("kind-semaphore");
		try (LockHandle handle = this.clients.first().client.lock(semaphore, EXCLUSIVE.withPermits(2))) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.second().client.tryLock(semaphore, EXCLUSIVE))
				.withMessageContaining("is a semaphore of 2 permits, this call asks for an exclusive lock");
		}
	}

	@Test
	void anotherKindOnAKeyTheThreadHoldsFailsBeforeAnyRoundTrip() {
		String key = TestRedis.uniqueKey("kind-thread");
		try (LockHandle handle = this.clients.first().client.lock(key, READ)) {
			long before = ReadWriteLockTests.scriptCalls(this.clients.first());
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.first().client.lock(key, EXCLUSIVE))
				.withMessageContaining(
						"is held by this thread as a read lock, and this call asks for an exclusive lock");
			assertThat(ReadWriteLockTests.scriptCalls(this.clients.first())).isEqualTo(before);
		}
		try (LockHandle handle = this.clients.first().client.lock(key, EXCLUSIVE)) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.first().client.lock(key, READ))
				.withMessageContaining(
						"is held by this thread as an exclusive lock, and this call asks for a read lock");
		}
	}

}
