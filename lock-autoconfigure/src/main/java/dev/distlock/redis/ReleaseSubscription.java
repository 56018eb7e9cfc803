package dev.distlock.redis;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The one subscription of a client to its own release channel, on which releases tell its waiters
 * that they were handed a lock, feeding a {@link ReleaseMessageWaiter}. It uses a private listener
 * container, so it never mixes with the application's own, and delivers messages on the
 * connection's thread (the waiter only wakes the waiting thread). The container re-subscribes
 * by itself after Redis comes back.
 */
public final class ReleaseSubscription implements SmartLifecycle, DisposableBean {

	private static final Log logger = LogFactory.getLog(ReleaseSubscription.class);

	private static final BackOff RECOVERY_BACKOFF = new FixedBackOff(500);

	private final RedisMessageListenerContainer container = new RedisMessageListenerContainer();

	private final ReleaseMessageWaiter waiter;

	private final String channel;

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
		this.container.setTaskExecutor(new SyncTaskExecutor());
		this.container.setSubscriptionExecutor(new SimpleAsyncTaskExecutor("distlock-subscription-"));
		this.container.setBeanName("distlockReleaseSubscription");
		// Subscribe again soon after Redis is back: waiters use backoff until then.
		this.container.setRecoveryBackoff(RECOVERY_BACKOFF);
		this.container.addMessageListener(waiter, new ChannelTopic(channel));
		this.container.afterPropertiesSet();
	}

	/**
	 * Returns whether the channel is subscribed, so that waiters are handed locks by releases.
	 * @return whether the subscription is established
	 */
	public boolean isSubscribed() {
		return this.waiter.isSubscribed() && this.container.isListening();
	}

	/**
	 * Returns the subscribed channel.
	 * @return the channel name
	 */
	public String channel() {
		return this.channel;
	}

	@Override
	public void start() {
		try {
			this.container.start();
		}
		catch (RuntimeException ex) {
			// Waiters use backoff meanwhile; the container keeps trying to subscribe.
			logger.warn("Could not subscribe to lock release channel '" + this.channel + "' yet: " + ex.getMessage());
		}
	}

	@Override
	public void stop() {
		this.container.stop();
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
