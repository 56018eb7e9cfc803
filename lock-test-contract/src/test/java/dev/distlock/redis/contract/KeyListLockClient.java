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

package dev.distlock.redis.contract;

import java.util.List;
import java.util.Optional;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * A client that takes every lock of one key through the multi-key methods of another, as
 * a list of that one key, so that the lock contract runs through them.
 */
public final class KeyListLockClient implements LockClient {

	private final LockClient client;

	/**
	 * Creates the wrapper.
	 * @param client the client whose multi-key methods take every lock
	 */
	public KeyListLockClient(LockClient client) {
		this.client = client;
	}

	@Override
	public LockOptions defaultOptions() {
		return this.client.defaultOptions();
	}

	@Override
	public LockOptions defaultOptions(String name) {
		return this.client.defaultOptions(name);
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		return this.client.tryLock(List.of(key), options);
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		return this.client.lock(List.of(key), options);
	}

}
