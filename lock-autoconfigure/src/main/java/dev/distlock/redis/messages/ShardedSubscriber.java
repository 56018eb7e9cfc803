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

package dev.distlock.redis.messages;

import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.DaemonThreads;

/**
 * Sends the subscriptions of a {@link ShardedReleaseSubscription} on a thread of its own,
 * so that nothing else blocks on them, and subscribes again the wanted channels not yet
 * confirmed: at once after a loss, on a freshly read topology, then with a backoff from
 * 100 ms to half a second, so that a promoted master is found within half a second. The
 * topology is read again after a loss or refusal, or if a channel is still pending.
 */
final class ShardedSubscriber {

	private static final Log logger = LogFactory.getLog(ShardedSubscriber.class);

	private static final long MIN_RETRY_MILLIS = 100;

	private static final long MAX_RETRY_MILLIS = 500;

	private final SlotSubscriptions slots;

	private final ShardedPubSubConnection connection;

	/** Where the cluster is, for the log. */
	private final String address;

	private final AtomicBoolean warned = new AtomicBoolean();

	private volatile boolean refresh;

	private Set<String> pendingBefore = Set.of();

	private long retryMillis = MIN_RETRY_MILLIS;

	private @Nullable ScheduledExecutorService executor;

	private @Nullable ScheduledFuture<?> nextCheck;

	ShardedSubscriber(SlotSubscriptions slots, ShardedPubSubConnection connection, String address) {
		this.slots = slots;
		this.connection = connection;
		this.address = address;
	}

	synchronized void start() {
		if (this.executor == null) {
			this.executor = Executors
				.newSingleThreadScheduledExecutor(DaemonThreads.named("distlock-shard-subscriber"));
		}
	}

	synchronized void stop() {
		if (this.executor != null) {
			this.executor.shutdownNow();
			this.executor = null;
		}
	}

	synchronized boolean isRunning() {
		return this.executor != null;
	}

	/** Subscribes to a channel, or unsubscribes from it, and checks soon that it took. */
	synchronized void change(String channel, boolean subscribe) {
		if (this.executor != null) {
			this.executor.execute(() -> send(channel, subscribe));
			this.retryMillis = MIN_RETRY_MILLIS;
			checkIn(MIN_RETRY_MILLIS);
		}
	}

	/** Subscribes again at once, on a fresh topology, lost channels still wanted. */
	synchronized void resubscribeNow() {
		this.refresh = true;
		this.retryMillis = MIN_RETRY_MILLIS;
		checkIn(0);
	}

	private void send(String channel, boolean subscribe) {
		try {
			if (subscribe) {
				// Refused (MOVED) or timed out: the next check refreshes.
				this.connection.ssubscribe(channel, () -> this.refresh = true);
			}
			else {
				this.connection.sunsubscribe(channel);
			}
		}
		catch (RuntimeException ex) {
			this.refresh = true;
			if (this.warned.compareAndSet(false, true)) {
				logger.warn("Could not subscribe to sharded lock release channel '" + channel + "' on " + this.address
						+ " yet, retrying while callers wait: " + ex.getMessage());
			}
		}
	}

	/** Subscribes again the wanted channels not confirmed; plans the next check. */
	private void resubscribeUnconfirmed() {
		List<String> pending = this.slots.unconfirmed();
		boolean stale = this.refresh || pending.stream().anyMatch(this.pendingBefore::contains);
		this.pendingBefore = Set.copyOf(pending);
		if (pending.isEmpty()) {
			return;
		}
		try {
			if (stale) {
				this.refresh = false;
				this.connection.refreshTopology();
			}
			pending.forEach((channel) -> send(channel, true));
		}
		catch (RuntimeException ex) {
			this.refresh = true;
		}
		synchronized (this) {
			checkIn(this.retryMillis);
			this.retryMillis = Math.min(this.retryMillis * 2, MAX_RETRY_MILLIS);
		}
	}

	/**
	 * Plans the next check, unless one is planned as soon and has not started (a check
	 * that runs already, or is due, may have seen the state before this change).
	 */
	private synchronized void checkIn(long millis) {
		ScheduledFuture<?> planned = this.nextCheck;
		long delay = (planned != null && !planned.isDone()) ? planned.getDelay(TimeUnit.MILLISECONDS) : -1;
		if (this.executor == null || delay > 0 && delay <= millis) {
			return;
		}
		if (planned != null && delay > millis) {
			planned.cancel(false);
		}
		this.nextCheck = this.executor.schedule(this::resubscribeUnconfirmed, millis, TimeUnit.MILLISECONDS);
	}

}
