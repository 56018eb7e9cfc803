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

package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockKind;
import dev.distlock.LockOptions;
import dev.distlock.redis.monitor.LockWaiterInfo;

/**
 * The callers of one client that wait for a lock another holder has: listed for
 * monitoring, and reported to the listeners as they start and stop waiting: in line
 * behind the client's other threads, or after an attempt in Redis found the lock held
 * (not when the wait begins, before that attempt), so an acquisition that succeeds at
 * once is never reported as waiting.
 */
final class WaitingAcquirers {

	private final Set<Waiting> waiting = ConcurrentHashMap.newKeySet();

	private final LockEvents events;

	WaitingAcquirers(LockEvents events) {
		this.events = events;
	}

	/**
	 * Records that the current thread waits for a lock; pass the result to
	 * {@link #stopped}.
	 */
	Waiting started(String key, LockOptions options) {
		Waiting entry = new Waiting(options, key, Thread.currentThread(), System.nanoTime());
		this.waiting.add(entry);
		this.events.startedWaiting(key, options);
		return entry;
	}

	void stopped(Waiting entry) {
		this.waiting.remove(entry);
		this.events.stoppedWaiting(entry.key(), entry.options());
	}

	List<LockWaiterInfo> snapshot() {
		long now = System.nanoTime();
		return this.waiting.stream().map((entry) -> {
			LockKind kind = LockKind.of(entry.options());
			return new LockWaiterInfo(entry.options().name(), entry.key(), entry.thread().getName(),
					Duration.ofNanos(now - entry.sinceNanos()), kind.label(), kind.modeLabel(), kind.permits());
		}).toList();
	}

	/** One waiting call; compared by identity. */
	record Waiting(LockOptions options, String key, Thread thread, long sinceNanos) {

		@Override
		public boolean equals(@Nullable Object other) {
			return this == other;
		}

		@Override
		public int hashCode() {
			return System.identityHashCode(this);
		}

	}

}
