package dev.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.lease.Lease;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.WaitTimings;

/**
 * The attempts of one acquisition: one owner token, tried until the lock is acquired, the
 * deadline passes or the thread is interrupted. A caller that may wait begins its
 * {@link LockWaiter.Wait} before the first attempt; if the wait gives a hand-off channel, a
 * failed attempt also takes a place in the lock's queue, and a release may then hand the lock
 * over during the wait, with no attempt of its own.
 * <p>
 * A hand-over is accepted only while it can still be valid: the release came after the last
 * attempt that found the lock held, so its claim window counts from that attempt's send. A
 * hand-over at or below the fencing counter that an attempt found is void (it came before that
 * attempt, and has lapsed since), and one whose claim window may have run out is checked in
 * Redis by another attempt, as is a grant whose reply came after its lease may have run out. An
 * acquirer that gives up leaves the queue, passing on a lock handed over in the meantime, and
 * waits briefly for Redis to have done so; an attempt whose outcome is unknown leaves it in the
 * background.
 */
final class LockAttempts {

	/** How long an acquirer that gives up waits for Redis to have taken it out of the queue. */
	private static final long LEAVE_WAIT_MILLIS = 100;

	private final RedisLockCommands commands;

	private final PendingReleases pending;

	private final String key;

	private final String token;

	private final long leaseMillis;

	private final IntSupplier block;

	private long lastAttemptNanos;

	private int lastBlock;

	private boolean mayBeQueued;

	private long heldFence;

	/**
	 * Creates the attempts of one acquisition.
	 * @param block how many fencing tokens each attempt reserves (asked again for each attempt)
	 */
	LockAttempts(RedisLockCommands commands, PendingReleases pending, String key, String token, long leaseMillis,
			IntSupplier block) {
		this.commands = commands;
		this.pending = pending;
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
		this.block = block;
	}

	String token() {
		return this.token;
	}

	/**
	 * Tries until acquired or given up.
	 * @return the grant, or null if not acquired
	 * @throws LockUnavailableException if an attempt fails
	 * @throws LockMisconfigurationException if Redis refuses an attempt for a reason to fix
	 */
	@Nullable Grant acquire(LockWaiter waiter, long deadline) {
		if (System.nanoTime() - deadline >= 0) {
			AcquireReply reply = attempt(null);
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = granted(granted);
				if (!grant.hasRunOut()) {
					return grant;
				}
				// The reply came too late to trust the lock: let it go.
				leave();
			}
			return null;
		}
		LockWaiter.Wait wait = waiter.begin(this.key, this.token);
		Grant grant = null;
		try {
			grant = attemptAndWait(wait, deadline);
			return grant;
		}
		finally {
			wait.close(grant != null);
		}
	}

	private @Nullable Grant attemptAndWait(LockWaiter.Wait wait, long deadline) {
		String channel = wait.handOffChannel();
		while (true) {
			AcquireReply reply = attempt(channel);
			if (reply == null) {
				break;
			}
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = granted(granted);
				if (!grant.hasRunOut()) {
					return grant;
				}
				// The reply came after the lease may have run out (a pause, a slow network): the next
				// attempt finds out in Redis whether the lock is still ours, with a fresh send time.
				if (System.nanoTime() - deadline >= 0) {
					leave();
					return null;
				}
				continue;
			}
			AcquireReply.Held held = (AcquireReply.Held) reply;
			this.heldFence = Math.max(this.heldFence, held.fenceCounter());
			long heldSent = this.lastAttemptNanos;
			if (System.nanoTime() - deadline >= 0 || !wait.await(held.holderLeaseMillis(), deadline)) {
				break;
			}
			HandOverMessage handOver = wait.takeHandOver();
			if (handOver != null && handOver.fencingToken() > this.heldFence) {
				Duration claim = Duration.ofMillis(this.commands.claimMillis(this.leaseMillis));
				Grant grant = new Grant(handOver.fencingToken(), handOver.block(), heldSent, claim);
				if (!grant.hasRunOut()) {
					return grant;
				}
				// Too late to trust: the next attempt finds out in Redis whether it is still ours.
			}
		}
		if (channel != null) {
			leave();
		}
		return null;
	}

	private Grant granted(AcquireReply.Granted reply) {
		return new Grant(reply.fencingToken(), this.lastBlock, this.lastAttemptNanos, Duration.ofMillis(this.leaseMillis));
	}

	/**
	 * Makes one attempt.
	 * @param handOffChannel where to be told of a hand-over if the lock is held, or null to stay
	 * out of the lock's queue
	 * @return the reply, or null if the thread is interrupted
	 */
	private @Nullable AcquireReply attempt(@Nullable String handOffChannel) {
		if (Thread.currentThread().isInterrupted()) {
			return null;
		}
		this.lastAttemptNanos = System.nanoTime();
		this.lastBlock = this.block.getAsInt();
		boolean queuedBefore = this.mayBeQueued;
		this.mayBeQueued |= handOffChannel != null;
		try {
			return this.commands.acquire(this.key, this.token, this.leaseMillis, handOffChannel,
					WaitTimings.QUEUE_ENTRY_TTL.toMillis(), this.lastBlock, queuedBefore);
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(this.key, "acquire", ex);
			if (misconfigured != null) {
				throw misconfigured;
			}
			// The acquire may have been applied although its reply was lost: undo it once Redis answers.
			leaveInBackground();
			if (Thread.currentThread().isInterrupted()) {
				return null;
			}
			throw new LockUnavailableException(this.key, "acquire", ex);
		}
	}

	private CompletableFuture<Void> leaveInBackground() {
		return this.pending.release(this.key, this.token,
				System.nanoTime() + Duration.ofMillis(this.leaseMillis).toNanos());
	}

	/**
	 * Leaves the lock's queue, and lets go of a lock handed over meanwhile, waiting briefly for
	 * Redis to have done so: a holder that releases right after this acquirer gave up then no
	 * longer hands the lock over to it. An interrupted thread, or a Redis that does not answer in
	 * time, leaves it to the background.
	 */
	private void leave() {
		CompletableFuture<Void> left = leaveInBackground();
		if (Thread.currentThread().isInterrupted()) {
			return;
		}
		try {
			left.get(LEAVE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Left to the background.
		}
	}

	/**
	 * What an acquisition was granted: the first fencing token of the block reserved for it,
	 * the size of the block, when the request that the grant counts from was sent, and how long
	 * Redis keeps the lock from then (the lease, or the claim window of a hand-over).
	 *
	 * @param fencingToken the first fencing token of the block
	 * @param block how many fencing tokens were reserved
	 * @param sentNanos when the request the grant counts from was sent
	 * @param validFor how long Redis keeps the lock from then
	 */
	record Grant(long fencingToken, int block, long sentNanos, Duration validFor) {

		/** Whether the grant may have run out already, by the local count (see {@link Lease}). */
		boolean hasRunOut() {
			return System.nanoTime() - Lease.validUntil(this.sentNanos, this.validFor) >= 0;
		}

	}

}
