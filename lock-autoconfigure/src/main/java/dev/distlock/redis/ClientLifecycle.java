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

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.Lifecycle;

import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.protocol.PendingReleases;

/**
 * Runs and ends what a {@link RedisLockClient} does in the background: its subscription
 * to its release channel (or its sharded channels on a cluster), if waiters are handed
 * locks by message, runs while the client does, and its first start checks whether Redis
 * may evict lock keys ({@link EvictionPolicyWarning}); closing the client also stops the
 * renewal of leases, the background releases and the watch on connection events. Held
 * locks expire with their leases.
 */
final class ClientLifecycle {

	private final @Nullable Lifecycle subscription;

	private final LeaseRenewer<?> renewer;

	private final PendingReleases pending;

	private final AutoCloseable connectionEvents;

	private final EvictionPolicyWarning evictionWarning;

	private volatile boolean running;

	ClientLifecycle(@Nullable Lifecycle subscription, LeaseRenewer<?> renewer, PendingReleases pending,
			AutoCloseable connectionEvents, EvictionPolicyWarning evictionWarning) {
		this.subscription = subscription;
		this.renewer = renewer;
		this.pending = pending;
		this.connectionEvents = connectionEvents;
		this.evictionWarning = evictionWarning;
	}

	/**
	 * Subscribes to the release channel, if there is a subscription; the first time, also
	 * checks in the background whether Redis may evict lock keys.
	 */
	void start() {
		if (this.subscription != null) {
			this.subscription.start();
		}
		this.evictionWarning.start();
		this.running = true;
	}

	/** Unsubscribes from the release channel, if there is a subscription. */
	void stop() {
		this.running = false;
		if (this.subscription != null) {
			this.subscription.stop();
		}
	}

	/** Whether the client runs: started, and not stopped since. */
	boolean isRunning() {
		return this.running;
	}

	/**
	 * Stops renewal and background releases, and ends the subscription and the watch on
	 * connection events; the client has stopped already.
	 */
	void close() {
		// Connection events first: a reconnect told on Lettuce's event thread asks the
		// renewer for a round, which must not meet an executor being shut down there.
		closeQuietly(this.connectionEvents);
		this.renewer.close();
		this.pending.close();
		if (this.subscription instanceof DisposableBean disposable) {
			closeQuietly(disposable::destroy);
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Nothing left to watch.
		}
	}

}
