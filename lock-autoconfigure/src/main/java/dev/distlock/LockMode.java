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

package dev.distlock;

/**
 * How a lock is shared among its holders. Most locks are {@link #EXCLUSIVE}: one holder
 * at a time. A read-write lock lets many {@link #READ} holders in together, or one
 * {@link #WRITE} holder alone: <pre class="code">
 * &#64;DistributedLock(key = "'lock:catalogue'", mode = LockMode.READ)
 * public Catalogue catalogue() { ... }
 *
 * &#64;DistributedLock(key = "'lock:catalogue'", mode = LockMode.WRITE)
 * public void rebuildCatalogue() { ... }
 * </pre> Waiting is first come, first served across both modes: a writer that queued
 * before a reader is served first, so a stream of readers cannot starve it. Every reader
 * has its own lease; a reader that crashes holds the lock only until its lease ends. A
 * thread holding the write lock may take the read lock of the same key (the hold is
 * re-entered); one holding the read lock may not take the write lock, which would wait
 * for itself, and gets an {@code IllegalLockUpgradeException}.
 * <p>
 * A key is used either as an exclusive lock, a read-write lock, or a semaphore
 * ({@link LockOptions#permits()}), never as two of them: Redis keeps them in different
 * structures, and using one key both ways fails with a
 * {@link LockMisconfigurationException}.
 */
public enum LockMode {

	/**
	 * One holder at a time: the lock of {@link DistributedLock @DistributedLock} and
	 * {@link LockClient} unless told otherwise.
	 */
	EXCLUSIVE,

	/**
	 * Shared with other readers of the same key, excluded by a writer.
	 */
	READ,

	/**
	 * Excludes readers and other writers of the same key; its fencing token exceeds those
	 * of every earlier reader and writer.
	 */
	WRITE

}
