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

package dev.distlock.redlock.contract;

import dev.distlock.LockClient;
import dev.distlock.redis.contract.KeyListLockClient;

/**
 * The lock contract for the RedLock client's locks of several keys, taken key by key (the
 * {@link LockClient} default): every lock of the suite is taken as a list of its one key,
 * on 3 {@code redis-server} processes.
 */
class RedLockMultiKeyContractTests extends RedLockContractTests {

	private LockClient keyListClient;

	@Override
	protected LockClient client() {
		if (this.keyListClient == null) {
			this.keyListClient = new KeyListLockClient(super.client());
		}
		return this.keyListClient;
	}

}
