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

package dev.distlock.fencing;

import java.time.Duration;
import java.util.List;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

/**
 * A lock client on the shared test Redis server, for the holds that fenced writes are
 * made under.
 */
final class FencingLocks implements AutoCloseable {

	private final LettuceConnectionFactory connectionFactory;

	final RedisLockClient client;

	/** The lock client of another instance of the application. */
	final RedisLockClient otherInstance;

	FencingLocks() {
		this.connectionFactory = TestRedis.connectionFactory(RedisTestServers.shared());
		this.client = startClient();
		this.otherInstance = startClient();
	}

	private RedisLockClient startClient() {
		RedisLockClient client = RedisLockClient.builder(TestRedis.template(this.connectionFactory))
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.build();
		client.start();
		// As in an application that has run a while: the client's first acquisition runs
		// the acquire script (which checks the server), later ones of a free lock that
		// nobody waits for are a plain SET NX PX, issued a token when first asked.
		client.lock(TestRedis.uniqueKey("first"), LockOptions.renewing(Duration.ZERO)).release();
		return client;
	}

	/** Locks a fresh key, auto-renewed, under a lock name. */
	LockHandle hold(String name) {
		return this.client.lock(TestRedis.uniqueKey(name), LockOptions.renewing(Duration.ofSeconds(10)).withName(name));
	}

	/**
	 * Lets a holder write as one that was paused right after the last check of its lease:
	 * a 200 ms fixed lease runs out, another instance takes the key with a higher token,
	 * and the returned view of the first hold still reports its lease as kept, as the
	 * hold did when the pause began.
	 * @return the paused hold (index 0) and the next one (index 1)
	 */
	List<LockHandle> pausedHoldAndNext(String name) {
		String key = TestRedis.uniqueKey(name);
		LockHandle first = this.client.lock(key,
				new LockOptions(Duration.ofSeconds(10), Duration.ofMillis(200)).withName(name));
		// The holder got its fencing token before it paused (a lock acquired with SET NX
		// PX
		// is issued its token when first asked, and only while it is held).
		first.fencingToken();
		LockHandle next = this.otherInstance.lock(key,
				new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30)).withName(name));
		return List.of(new PausedAfterLeaseCheck(first), next);
	}

	@Override
	public void close() {
		this.client.close();
		this.otherInstance.close();
		this.connectionFactory.destroy();
	}

	/**
	 * A hold whose pause began after its last lease check: it still reports its lease
	 * kept.
	 */
	private record PausedAfterLeaseCheck(LockHandle hold) implements LockHandle {

		@Override
		public String key() {
			return this.hold.key();
		}

		@Override
		public String name() {
			return this.hold.name();
		}

		@Override
		public Duration leaseTime() {
			return this.hold.leaseTime();
		}

		@Override
		public boolean isAutoRenewing() {
			return false;
		}

		@Override
		public long fencingToken() {
			return this.hold.fencingToken();
		}

		@Override
		public boolean isLeaseLost() {
			return false;
		}

		@Override
		public boolean isReleased() {
			return this.hold.isReleased();
		}

		@Override
		public void extend(Duration leaseTime) {
			this.hold.extend(leaseTime);
		}

		@Override
		public void release() {
			try {
				this.hold.release();
			}
			catch (dev.distlock.LockLeaseLostException ex) {
				// Expected: its lease ran out during the pause.
			}
		}

	}

}
