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

package dev.distlock.example.contract;

import java.util.Optional;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * A wrapper such as an application might write around the {@link LockClient} bean: it
 * keeps the locks of each tenant apart by putting the tenant in front of every key.
 */
class TenantLockClient implements LockClient {

	private final String tenant;

	private final LockClient delegate;

	TenantLockClient(String tenant, LockClient delegate) {
		this.tenant = tenant;
		this.delegate = delegate;
	}

	@Override
	public LockOptions defaultOptions() {
		return this.delegate.defaultOptions();
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		return this.delegate.tryLock(tenantKey(key), options);
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		return this.delegate.lock(tenantKey(key), options);
	}

	private String tenantKey(String key) {
		return "tenant:" + this.tenant + ":" + key;
	}

}
