package dev.distlock.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * The life of the locks a client holds, from grant to release: which keys each thread holds (for
 * re-entry), auto-renewal, releasing with the minimum hold, and telling listeners, once, when a
 * lease is lost.
 */
final class LockHolds implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockHolds.class);

	private final RedisLockCommands commands;

	private final LockListener listeners;

	private final LeaseRenewer renewer;

	private final ThreadLocal<Map<String, RedisLockHandle>> byThread = ThreadLocal.withInitial(HashMap::new);

	LockHolds(RedisLockCommands commands, LockListener listeners, Duration renewalLease, boolean bySlot) {
		this.commands = commands;
		this.listeners = listeners;
		this.renewer = new LeaseRenewer(commands, this, renewalLease, bySlot);
	}

	LeaseRenewer renewer() {
		return this.renewer;
	}

	/** Returns a new hold of a key the current thread holds, or null if it holds none. */
	@Nullable LockHandle reenter(String key) {
		RedisLockHandle outer = this.byThread.get().get(key);
		if (outer == null) {
			return null;
		}
		if (outer.isLeaseLost() || outer.leaseExpiredLocally()) {
			leaseLost(outer, "its lease had run out before a re-entrant acquisition");
			throw new LockLeaseLostException(key, outer.leaseTime(), outer.heldFor());
		}
		LockHandle nested = outer.enter();
		if (nested == null) {
			this.byThread.get().remove(key);
		}
		return nested;
	}

	RedisLockHandle grant(String key, String token, long fencingToken, Duration lease, LockOptions options,
			long acquiredNanos, long startNanos) {
		RedisLockHandle handle = new RedisLockHandle(this, key, token, fencingToken, lease, options, acquiredNanos);
		this.byThread.get().put(key, handle);
		if (options.isAutoRenewing()) {
			this.renewer.register(handle);
		}
		logger.debug("Acquired lock '" + key + "' with fencing token " + fencingToken);
		this.listeners.acquired(handle, Duration.ofNanos(System.nanoTime() - startNanos));
		return handle;
	}

	void notAcquired(String key, long startNanos) {
		logger.debug("Did not acquire lock '" + key + "'");
		this.listeners.notAcquired(key, Duration.ofNanos(System.nanoTime() - startNanos));
	}

	void release(RedisLockHandle handle) {
		this.renewer.unregister(handle);
		if (Thread.currentThread() == handle.owner()) {
			this.byThread.get().remove(handle.key(), handle);
		}
		Duration held = handle.heldFor();
		long keep = Math.max(0, handle.minHoldTime().minus(held).toMillis());
		long outcome;
		try {
			outcome = this.commands.release(handle.key(), handle.token(), keep);
		}
		catch (DataAccessException ex) {
			this.listeners.released(handle, held);
			throw new LockUnavailableException(handle.key(), "release", ex);
		}
		handle.markReleasedInRedis(System.nanoTime());
		this.listeners.released(handle, held);
		if (outcome == 0) {
			leaseLost(handle, "its key was gone or held by another owner on release");
		}
		if (handle.isLeaseLost()) {
			throw new LockLeaseLostException(handle.key(), handle.leaseTime(), handle.heldFor());
		}
		logger.debug("Released lock '" + handle.key() + "'" + ((outcome == 2) ? ", kept for " + keep + "ms" : ""));
	}

	void leaseLost(RedisLockHandle handle, String reason) {
		if (handle.markLeaseLost()) {
			logger.warn("Lost the lease of lock '" + handle.key() + "' after " + handle.heldFor().toMillis() + "ms: "
					+ reason + "; another holder may run at the same time");
			this.listeners.leaseLost(handle);
		}
	}

	void renewed(int renewed, int roundTrips) {
		this.listeners.renewed(renewed, roundTrips);
	}

	@Override
	public void close() {
		this.renewer.close();
	}

}
