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

package dev.distlock.faults;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * distlock's lock of one kind (exclusive, read, write, or a permit of a semaphore)
 * through the worker's {@link LockClient} bean; several keys are taken all or nothing.
 */
final class DistlockWorkerLock implements WorkerLock {

	private final LockClient client;

	private final LockMode mode;

	private final int permits;

	DistlockWorkerLock(LockClient client, LockMode mode, int permits) {
		this.client = client;
		this.mode = mode;
		this.permits = permits;
	}

	@Override
	public Held take(List<String> keys, @Nullable Duration lease, Duration wait) {
		LockOptions options = new LockOptions(wait, lease, Duration.ZERO).withMode(this.mode).withPermits(this.permits);
		LockHandle handle = (keys.size() == 1) ? this.client.lock(keys.get(0), options)
				: this.client.lock(keys, options);
		return new Held() {

			@Override
			public long token(String key) {
				return (keys.size() == 1) ? handle.fencingToken() : handle.fencingToken(key);
			}

			@Override
			public boolean isLeaseLost() {
				return handle.isLeaseLost();
			}

			@Override
			public boolean isReleased() {
				return handle.isReleased();
			}

			@Override
			public void release() {
				handle.release();
			}

		};
	}

	@Override
	public boolean exclusive() {
		return this.mode != LockMode.READ && this.permits == 1;
	}

}
