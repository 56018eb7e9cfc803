package dev.distlock.redis.wait;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.HandOverMessage;

/**
 * One acquisition's place in a lock's queue, as a {@link ReleaseMessageWaiter} keeps it:
 * the attempts queue the owner token with the client's channel, and the wait ends when a
 * message naming that token arrives with the hand-over, or when the backstop, the
 * holder's lease or the deadline says to attempt again. Each hand-over is taken once: one
 * that the acquirer finds void does not end later waits.
 */
final class QueuedWait implements LockWaiter.Wait {

	private final String token;

	private final String channel;

	private final BiConsumer<String, QueuedWait> onClose;

	private final BlockingQueue<HandOverMessage> handOvers = new LinkedBlockingQueue<>();

	private @Nullable HandOverMessage received;

	private volatile boolean waiting;

	/**
	 * Creates a wait.
	 * @param token the owner token of the acquisition
	 * @param channel the channel the hand-over message comes on
	 * @param onClose called with the token and this wait when it closes
	 */
	QueuedWait(String token, String channel, BiConsumer<String, QueuedWait> onClose) {
		this.token = token;
		this.channel = channel;
		this.onClose = onClose;
	}

	/** Records a hand-over and wakes the acquirer. */
	void handOver(HandOverMessage handOver) {
		this.handOvers.add(handOver);
	}

	/** Whether an attempt failed and the acquirer has started waiting. */
	boolean isWaiting() {
		return this.waiting;
	}

	@Override
	public String handOffChannel() {
		return this.channel;
	}

	@Override
	public boolean await(long holderLeaseMillis, long deadlineNanos) {
		this.waiting = true;
		long timeout = Math.min(deadlineNanos - System.nanoTime(), Math
			.min(TimeUnit.MILLISECONDS.toNanos(Math.max(holderLeaseMillis, 1)), WaitTimings.MAX_SILENT_WAIT.toNanos()));
		try {
			this.received = this.handOvers.poll(Math.max(timeout, 0), TimeUnit.NANOSECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public @Nullable HandOverMessage takeHandOver() {
		HandOverMessage handOver = this.received;
		this.received = null;
		return handOver;
	}

	@Override
	public void close(boolean acquired) {
		this.onClose.accept(this.token, this);
	}

}
