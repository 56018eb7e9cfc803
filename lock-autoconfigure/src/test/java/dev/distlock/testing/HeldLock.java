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

package dev.distlock.testing;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * A lock held by another thread, as another instance of the application would hold it:
 * the calling thread cannot re-enter it. Acquired on creation, released on
 * {@link #close()}, both on the holder's own thread.
 */
public final class HeldLock implements AutoCloseable {

	private final ExecutorService holder = Executors.newSingleThreadExecutor();

	private final LockHandle handle;

	private HeldLock(LockClient client, String key) throws Exception {
		LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));
		this.handle = this.holder.submit(() -> client.lock(key, options)).get(10, TimeUnit.SECONDS);
	}

	/**
	 * Acquires a lock on a thread of its own.
	 * @param client the client to acquire with
	 * @param key the lock key, as given to the client
	 * @return the held lock
	 * @throws Exception if the lock cannot be acquired at once
	 */
	public static HeldLock elsewhere(LockClient client, String key) throws Exception {
		return new HeldLock(client, key);
	}

	/**
	 * Returns the handle of the hold.
	 * @return the handle
	 */
	public LockHandle handle() {
		return this.handle;
	}

	/**
	 * Releases the lock on the holder's thread.
	 * @throws Exception if the release fails
	 */
	@Override
	public void close() throws Exception {
		try {
			this.holder.submit(this.handle::release).get(10, TimeUnit.SECONDS);
		}
		finally {
			this.holder.shutdownNow();
		}
	}

}
