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

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

import dev.distlock.redis.monitor.ReleaseSubscriptionStatus;
import dev.distlock.redis.protocol.DaemonThreads;
import dev.distlock.redis.protocol.RedisAddress;

/**
 * The one subscription of a client to its own release channel, on which releases tell its
 * waiters that they were handed a lock, feeding a {@link ReleaseMessageWaiter}. It uses a
 * private listener container, so it never mixes with the application's own, and delivers
 * messages on the connection's thread (the waiter only wakes the waiting thread). The
 * container re-subscribes by itself after Redis comes back; a first subscription that
 * failed (Redis down at startup) is retried every half second until it succeeds. Starting
 * and stopping wait for Redis under a {@link ReentrantLock}, not a monitor, so that a
 * virtual thread doing so never pins its carrier on JDK 21 to 23.
 */
public final class ReleaseSubscription implements SmartLifecycle, DisposableBean, ReleaseSubscriptionStatus {

	private static final Log logger = LogFactory.getLog(ReleaseSubscription.class);

	private static final long RETRY_MILLIS = 500;

	private static final BackOff RECOVERY_BACKOFF = new FixedBackOff(RETRY_MILLIS);

	private final RedisMessageListenerContainer container = new RedisMessageListenerContainer();

	private final ReleaseMessageWaiter waiter;

	private final String channel;

	/** Where it subscribes, for the log. */
	private final String address;

	private final AtomicBoolean warned = new AtomicBoolean();

	private final ReentrantLock lifecycle = new ReentrantLock();

	private @Nullable ScheduledExecutorService retries;

	/**
	 * Creates the subscription; it starts with the application context.
	 * @param connectionFactory where to subscribe
	 * @param channel the release channel of the client
	 * @param waiter the waiter to wake
	 */
	public ReleaseSubscription(RedisConnectionFactory connectionFactory, String channel, ReleaseMessageWaiter waiter) {
		this.waiter = waiter;
		this.channel = channel;
		this.container.setConnectionFactory(connectionFactory);
		this.address = RedisAddress.of(connectionFactory);
		this.container.setTaskExecutor(new SyncTaskExecutor());
		this.container.setSubscriptionExecutor(new SimpleAsyncTaskExecutor("distlock-subscription-"));
		this.container.setBeanName("distlockReleaseSubscription");
		// Subscribe again soon after Redis is back: waiters use backoff until then.
		this.container.setRecoveryBackoff(RECOVERY_BACKOFF);
		this.container.addMessageListener(waiter, new ChannelTopic(channel));
		this.container.afterPropertiesSet();
	}

	/**
	 * Returns whether the channel is subscribed, so that waiters are handed locks by
	 * releases.
	 * @return whether the subscription is established
	 */
	@Override
	public boolean isSubscribed() {
		return this.waiter.isSubscribed() && this.container.isListening();
	}

	/**
	 * Returns the subscribed channel.
	 * @return the channel name
	 */
	@Override
	public String channel() {
		return this.channel;
	}

	@Override
	public void start() {
		this.lifecycle.lock();
		try {
			if (this.retries == null) {
				this.retries = Executors
					.newSingleThreadScheduledExecutor(DaemonThreads.named("distlock-subscription-retry"));
				this.retries.scheduleWithFixedDelay(this::subscribeIfNotListening, RETRY_MILLIS, RETRY_MILLIS,
						TimeUnit.MILLISECONDS);
			}
			subscribe();
		}
		finally {
			this.lifecycle.unlock();
		}
	}

	private void subscribe() {
		try {
			this.container.start();
		}
		catch (RuntimeException ex) {
			// Waiters use backoff meanwhile; the subscription is retried until it
			// succeeds.
			if (this.warned.compareAndSet(false, true)) {
				logger.warn("Could not subscribe to lock release channel '" + this.channel + "' at " + this.address
						+ " yet, retrying every " + RETRY_MILLIS + "ms: " + ex.getMessage());
			}
		}
	}

	/**
	 * Starts the container again if it has given up: a container whose first subscription
	 * failed (Redis down at startup) does not recover by itself, while one that lost an
	 * established subscription does.
	 */
	private void subscribeIfNotListening() {
		this.lifecycle.lock();
		try {
			if (this.retries != null && !this.container.isListening()) {
				this.container.stop();
				subscribe();
			}
		}
		finally {
			this.lifecycle.unlock();
		}
	}

	@Override
	public void stop() {
		this.lifecycle.lock();
		try {
			if (this.retries != null) {
				this.retries.shutdownNow();
				this.retries = null;
			}
			this.container.stop();
		}
		finally {
			this.lifecycle.unlock();
		}
	}

	@Override
	public boolean isRunning() {
		return this.container.isRunning();
	}

	@Override
	public void destroy() throws Exception {
		this.container.destroy();
	}

}
