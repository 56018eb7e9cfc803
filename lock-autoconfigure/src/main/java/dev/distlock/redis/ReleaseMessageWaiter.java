package dev.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * Wakes waiters when a lock is released: the release script publishes the key on one channel,
 * and this client keeps one subscription to it for all its waiters. Each wait is still bounded
 * by the holder's remaining lease, the caller's deadline and a {@linkplain #MAX_SILENT_WAIT
 * backstop}, so a lost message delays an acquirer but never hangs it. While the subscription
 * is not established, waiters fall back to the given backoff.
 */
public final class ReleaseMessageWaiter implements LockWaiter, MessageListener, SubscriptionListener {

	/** The longest wait without a message before an attempt is retried anyway. */
	static final Duration MAX_SILENT_WAIT = Duration.ofSeconds(1);

	private final Map<String, KeyWaitQueue> queues = new ConcurrentHashMap<>();

	private final LockWaiter fallback;

	private final AtomicLong wakeUps = new AtomicLong();

	private volatile boolean subscribed;

	/**
	 * Creates a waiter.
	 * @param fallback how to wait while the subscription is down
	 */
	public ReleaseMessageWaiter(LockWaiter fallback) {
		this.fallback = fallback;
	}

	/**
	 * Returns whether the release channel is subscribed, so that waiters are woken by messages.
	 * @return whether the subscription is established
	 */
	public boolean isSubscribed() {
		return this.subscribed;
	}

	/**
	 * Returns how many threads wait for locks.
	 * @return the number of waiting threads
	 */
	public int waiting() {
		return this.queues.values().stream().mapToInt(KeyWaitQueue::size).sum();
	}

	/**
	 * Returns how many waits ended because a release message woke them.
	 * @return the number of wake-ups
	 */
	public long wakeUps() {
		return this.wakeUps.get();
	}

	@Override
	public Wait begin(String key) {
		if (!this.subscribed) {
			return this.fallback.begin(key);
		}
		KeyWaitQueue.Waiter[] waiter = new KeyWaitQueue.Waiter[1];
		KeyWaitQueue queue = this.queues.compute(key, (k, existing) -> {
			KeyWaitQueue joined = (existing != null) ? existing : new KeyWaitQueue();
			waiter[0] = joined.add();
			return joined;
		});
		return new MessageWait(key, queue, waiter[0]);
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		KeyWaitQueue queue = this.queues.get(new String(message.getBody(), StandardCharsets.UTF_8));
		if (queue != null) {
			queue.wakeFirst();
		}
	}

	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		this.subscribed = true;
	}

	@Override
	public void onChannelUnsubscribed(byte[] channel, long count) {
		this.subscribed = false;
	}

	private final class MessageWait implements Wait {

		private final String key;

		private final KeyWaitQueue queue;

		private final KeyWaitQueue.Waiter waiter;

		MessageWait(String key, KeyWaitQueue queue, KeyWaitQueue.Waiter waiter) {
			this.key = key;
			this.queue = queue;
			this.waiter = waiter;
		}

		@Override
		public boolean await(long holderLeaseMillis, long deadlineNanos) {
			long timeout = Math.min(deadlineNanos - System.nanoTime(),
					Math.min(TimeUnit.MILLISECONDS.toNanos(Math.max(holderLeaseMillis, 1)), MAX_SILENT_WAIT.toNanos()));
			try {
				if (this.waiter.await(timeout)) {
					ReleaseMessageWaiter.this.wakeUps.incrementAndGet();
				}
				return true;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

		@Override
		public void close(boolean acquired) {
			boolean passOn = !acquired && this.waiter.takePending();
			ReleaseMessageWaiter.this.queues.computeIfPresent(this.key,
					(k, existing) -> existing.remove(this.waiter) ? null : existing);
			if (passOn) {
				this.queue.wakeFirst();
			}
		}

	}

}
