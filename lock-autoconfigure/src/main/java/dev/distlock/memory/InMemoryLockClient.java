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

package dev.distlock.memory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.support.LockKeyRules;

/**
 * {@link LockClient} that keeps its locks in this JVM's memory, for tests and
 * single-instance development; selected in an application with
 * {@code distlock.store=in-memory}. It keeps the Redis client's contract within the JVM:
 * leases (a lock whose lease ran out is free for others, and its holder finds
 * {@link LockHandle#isLeaseLost()} true and gets a
 * {@link dev.distlock.LockLeaseLostException} on release), auto-renewing leases for calls
 * without a lease time, minimum hold times, a fencing token per grant greater than every
 * one before, waiters served first come, first served, re-entry per thread with the outer
 * hold's fencing token, the same {@link dev.distlock.LockListener} events in the same
 * order, interrupts, and the same key rules and prefix.
 * <p>
 * Read-write locks ({@link LockOptions#mode()}) and semaphores
 * ({@link LockOptions#permits()}) follow the Redis client's rules too: many readers or
 * one writer, at most that many permit holders, each holder with a lease of its own,
 * waiters served first come, first served across modes, a fencing token per grant, a
 * writer re-entering its lock for a read, a reader asking for the write side refused with
 * an {@link dev.distlock.IllegalLockUpgradeException}, and a key locked in two ways
 * (exclusive and shared, or different permits) refused with a
 * {@link dev.distlock.LockMisconfigurationException}.
 * <p>
 * Leases are computed when asked, not renewed by a thread: a fixed lease runs out at its
 * acquisition plus the lease, and an auto-renewing one lasts while its holder thread
 * lives, which is all a renewal thread could achieve in one process. So the client has no
 * thread and nothing to start or close, and reports no
 * {@link dev.distlock.LockListener#renewed renewals}.
 * <p>
 * Its locks exclude only the threads that use this client object: not other processes,
 * not other clients in the same JVM (another application context, for example). Never use
 * it where several instances of an application must exclude each other.
 */
public class InMemoryLockClient implements LockClient {

	private final LockKeyRules keyRules;

	private final LockOptions defaultOptions;

	private final Map<String, LockOptions> namedOptions = new HashMap<>();

	private final InMemoryAcquirer acquirer;

	/**
	 * Creates a client with the {@link InMemoryLockClientBuilder builder's} defaults.
	 */
	public InMemoryLockClient() {
		this(builder());
	}

	InMemoryLockClient(InMemoryLockClientBuilder builder) {
		this.keyRules = new LockKeyRules(builder.keyPrefix, builder.maxKeyLength);
		this.defaultOptions = builder.defaultOptions;
		builder.namedOptions.forEach(
				(name, derive) -> this.namedOptions.put(name, derive.apply(builder.defaultOptions).withName(name)));
		InMemoryLockEvents events = new InMemoryLockEvents(builder.listeners);
		LockTable table = new LockTable();
		ThreadHolds holds = new ThreadHolds(events);
		this.acquirer = new InMemoryAcquirer(holds, table, events, new InMemoryLockReleaser(table, holds, events),
				builder.renewalLease, builder.observationRegistry);
	}

	/**
	 * Starts building a client.
	 * @return the builder
	 */
	public static InMemoryLockClientBuilder builder() {
		return new InMemoryLockClientBuilder();
	}

	@Override
	public LockOptions defaultOptions() {
		return this.defaultOptions;
	}

	/**
	 * Returns the options the builder was given for the name, else the default options.
	 * @param name the logical name of the lock
	 * @return the options of locks of that name
	 */
	@Override
	public LockOptions defaultOptions(String name) {
		LockOptions options = this.namedOptions.get(name);
		return (options != null) ? options : this.defaultOptions.withName(name);
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		String prefixedKey = this.keyRules.lockKey(key);
		return Optional.ofNullable(this.acquirer.acquire(prefixedKey, options, System.nanoTime()));
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		String prefixedKey = this.keyRules.lockKey(key);
		long start = System.nanoTime();
		LockHandle handle = this.acquirer.acquire(prefixedKey, options, start);
		if (handle == null) {
			throw new LockNotAcquiredException(prefixedKey, options.name(), options.waitTime(),
					Duration.ofNanos(System.nanoTime() - start));
		}
		return handle;
	}

}
