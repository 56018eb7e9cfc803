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

package dev.distlock.memory.contract;

import java.time.Duration;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.redis.contract.KeyListLockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for locks taken through the default multi-key methods of
 * {@link LockClient}, on the in-memory client, each as a list of one key.
 */
class InMemoryMultiKeyContractTests extends AbstractLockClientContractTests {

	private final LockClient client = new KeyListLockClient(InMemoryLockClient.builder()
		.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
		.renewalLease(Duration.ofSeconds(3))
		.build());

	@Override
	protected LockClient client() {
		return this.client;
	}

}
