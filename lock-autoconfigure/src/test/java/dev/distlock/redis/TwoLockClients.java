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

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.distlock.test.redis.RedisTestServers;

/**
 * Two lock clients, as two instances of an application would have, on the shared test
 * server: started before each test, closed after it. Register it with
 * {@code @RegisterExtension final TwoLockClients clients = new TwoLockClients();}.
 */
final class TwoLockClients implements BeforeEachCallback, AfterEachCallback {

	private static final Duration RENEWAL_LEASE = Duration.ofSeconds(30);

	private LockFixture first;

	private LockFixture second;

	@Override
	public void beforeEach(ExtensionContext context) {
		this.first = LockFixture.start(RedisTestServers.shared(), RENEWAL_LEASE);
		this.second = LockFixture.start(RedisTestServers.shared(), RENEWAL_LEASE);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		try {
			this.first.close();
		}
		finally {
			this.second.close();
		}
	}

	/** Returns the first client's fixture. */
	LockFixture first() {
		return this.first;
	}

	/** Returns the second client's fixture. */
	LockFixture second() {
		return this.second;
	}

}
