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
import java.util.concurrent.locks.Condition;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockKind;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * One thread's request for a key, and its place in the key's line while it waits: the
 * {@link LockTable} grants it there and signals its own condition, so that a release
 * wakes only the thread it hands the lock to, and the first in line when the key may
 * become free at another time. Its mutable state is only touched under the table's mutex.
 */
final class LockRequest {

	private final String key;

	private final Thread thread;

	private final Duration leaseTime;

	private final boolean autoRenewing;

	private final LockMode mode;

	private final LockKind kind;

	private @Nullable Condition wakeUp;

	private @Nullable Grant grant;

	/**
	 * Creates a request of the current thread.
	 * @param leaseTime the fixed lease, or the renewal lease of an auto-renewing one
	 * @param options the options of the call, which say how it locks the key
	 */
	LockRequest(String key, Duration leaseTime, LockOptions options) {
		this.key = key;
		this.thread = Thread.currentThread();
		this.leaseTime = leaseTime;
		this.autoRenewing = options.isAutoRenewing();
		this.mode = options.mode();
		this.kind = LockKind.of(options);
	}

	String key() {
		return this.key;
	}

	Thread thread() {
		return this.thread;
	}

	Duration leaseTime() {
		return this.leaseTime;
	}

	boolean autoRenewing() {
		return this.autoRenewing;
	}

	/** The side of a read-write lock it asks for, or exclusive. */
	LockMode mode() {
		return this.mode;
	}

	/** The way it locks the key. */
	LockKind kind() {
		return this.kind;
	}

	/** Queues the request: from now on it is woken through this condition. */
	void queued(Condition wakeUp) {
		this.wakeUp = wakeUp;
	}

	/** The condition it waits on; only for a queued request. */
	Condition wakeUp() {
		if (this.wakeUp == null) {
			throw new IllegalStateException("Request for " + this.key + " is not queued");
		}
		return this.wakeUp;
	}

	/** Records that the line granted it the key, and wakes it. */
	void granted(Grant grant) {
		this.grant = grant;
		alert();
	}

	/** Wakes the request to look at its key again, if it is queued. */
	void alert() {
		if (this.wakeUp != null) {
			this.wakeUp.signal();
		}
	}

	@Nullable Grant grant() {
		return this.grant;
	}

}
