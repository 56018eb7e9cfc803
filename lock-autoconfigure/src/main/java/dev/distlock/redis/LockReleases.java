package dev.distlock.redis;

import java.time.Duration;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockUnavailableException;

/**
 * Ends the holds of a client: passes the lock to the next thread of the client that waits for
 * it ({@link LocalHandOffs}), or releases it in Redis, which keeps it for the minimum hold or
 * hands it to the next waiter in the lock's queue; reports a lease found lost on release,
 * including one whose local validity ran out although Redis still had the key; and ends holds by
 * force for the actuator. A release that cannot reach Redis is retried in the background until
 * Redis answers (the caller gets its exception at once), so that a live holder never strands its
 * lock for a whole lease.
 */
final class LockReleases {

	private static final Log logger = LogFactory.getLog(LockReleases.class);

	private final RedisLockCommands commands;

	private final LockListener listeners;

	private final LocalHandOffs local;

	private final LockHolds holds;

	private final PendingReleases pending;

	LockReleases(RedisLockCommands commands, LockListener listeners, LocalHandOffs local, LockHolds holds,
			PendingReleases pending) {
		this.commands = commands;
		this.pending = pending;
		this.listeners = listeners;
		this.local = local;
		this.holds = holds;
	}

	void release(RedisLockHandle handle) {
		this.holds.forget(handle);
		Duration held = handle.heldFor();
		if (handle.isPastDeadline()) {
			this.holds.leaseLost(handle, "its lease ran out before release, by this process's count");
		}
		if (this.local.passOn(handle)) {
			this.listeners.released(handle, held);
			if (logger.isDebugEnabled()) {
				logger.debug("Passed lock " + LockKeyQuoting.quote(handle.key()) + " to the next thread of this client waiting for it");
			}
			return;
		}
		try {
			releaseInRedis(handle, held);
		}
		finally {
			this.local.releasedInRedis(handle);
		}
	}

	private void releaseInRedis(RedisLockHandle handle, Duration held) {
		long keep = Math.max(0, handle.minHoldTime().minus(held).toMillis());
		ReleaseOutcome outcome;
		try {
			outcome = this.commands.release(handle.key(), handle.token(), keep);
		}
		catch (DataAccessException ex) {
			this.listeners.released(handle, held);
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(handle.key(), "release", ex);
			if (misconfigured != null) {
				throw misconfigured;
			}
			this.pending.release(handle.key(), handle.token(), System.nanoTime() + handle.leaseTime().toNanos());
			throw new LockUnavailableException(handle.key(), "release", ex);
		}
		handle.markReleasedInRedis(System.nanoTime());
		this.listeners.released(handle, held);
		if (!outcome.wasHeld()) {
			this.holds.leaseLost(handle, "its key was gone or held by another owner on release");
		}
		if (handle.isLeaseLost()) {
			throw new LockLeaseLostException(handle.key(), handle.leaseTime(), handle.heldFor());
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock " + LockKeyQuoting.quote(handle.key()) + ": " + outcome
					+ ((outcome == ReleaseOutcome.KEPT_FOR_MIN_HOLD) ? " for " + keep + "ms" : ""));
		}
	}

	/**
	 * Ends the holds of a key whatever their thread: releases the key if one of them still holds
	 * it (handing it to the next waiter, if any), stops renewing them and marks their leases
	 * lost, so that their holders get a {@link LockLeaseLostException} when they release.
	 * @return whether there were any
	 */
	boolean forceRelease(String key) {
		List<RedisLockHandle> handles = this.holds.held(key);
		for (RedisLockHandle handle : handles) {
			this.holds.forget(handle);
			try {
				this.commands.release(key, handle.token(), 0);
			}
			catch (DataAccessException ex) {
				throw new LockUnavailableException(key, "force-release", ex);
			}
			this.local.releasedInRedis(handle);
			this.holds.leaseLost(handle, "it was force-released");
		}
		return !handles.isEmpty();
	}

}
