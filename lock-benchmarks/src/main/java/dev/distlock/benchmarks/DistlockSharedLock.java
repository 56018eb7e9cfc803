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

package dev.distlock.benchmarks;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * distlock's shared locks through the auto-configured {@link LockClient}: its default
 * options (auto-renewed lease, see {@link DistlockFactory}) with
 * {@link LockOptions#withMode(LockMode) withMode(READ)} or {@code withMode(WRITE)}, or
 * {@link LockOptions#withPermits(int) withPermits(n)}.
 */
final class DistlockSharedLock implements SharedLockContender {

	static final String NAME = "distlock LockClient";

	private final LockClient client;

	private final LockOptions read;

	private final LockOptions write;

	private final LockOptions permit;

	DistlockSharedLock(LockClient client, int permits) {
		this.client = client;
		LockOptions defaults = client.defaultOptions();
		this.read = defaults.withMode(LockMode.READ);
		this.write = defaults.withMode(LockMode.WRITE);
		this.permit = defaults.withPermits(permits);
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public ExplicitContender.Held acquire(String key, Access access) {
		LockOptions options = switch (access) {
			case READ -> this.read;
			case WRITE -> this.write;
			case PERMIT -> this.permit;
		};
		LockHandle handle = this.client.lock(key, options);
		return handle::release;
	}

}
