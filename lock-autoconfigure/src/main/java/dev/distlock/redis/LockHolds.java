package dev.distlock.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * The locks a client holds, from grant to release: which keys each thread holds (for re-entry)
 * and which the client holds (for monitoring), auto-renewal, and telling listeners, once, when a
 * lease is lost. Ending a hold is {@link LockReleases}'s part.
 */
final class LockHolds implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockHolds.class);

	private final LockListener listeners;

	private final LeaseRenewer renewer;

	private final LocalHandOffs local;

	private final LockReleases releases;

	private final ThreadLocal<Map<String, RedisLockHandle>> byThread = ThreadLocal.withInitial(HashMap::new);

	private final Set<RedisLockHandle> all = ConcurrentHashMap.newKeySet();

	LockHolds(RedisLockCommands commands, LockListener listeners, Duration renewalLease, boolean bySlot,
			LocalHandOffs local, PendingReleases pending) {
		this.listeners = listeners;
		this.renewer = new LeaseRenewer(commands, this, renewalLease, bySlot);
		this.local = local;
		this.releases = new LockReleases(commands, listeners, local, this, pending);
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
		if (outer.isLeaseLost()) {
			leaseLost(outer, "its lease had run out before a re-entrant acquisition");
			throw new LockLeaseLostException(key, outer.leaseTime(), outer.heldFor());
		}
		LockHandle nested = outer.enter();
		if (nested == null) {
			this.byThread.get().remove(key);
		}
		return nested;
	}

	/**
	 * Records a lock acquired in Redis; a hand-over that Redis keeps only for its claim window
	 * is confirmed in the background, so that the holder's method starts without waiting.
	 */
	RedisLockHandle grant(String key, String token, LockAttempts.Grant grant, Duration lease, LockOptions options,
			long startNanos) {
		RedisLockHandle handle = register(new RedisLockHandle(this, key, token, grant.fencingToken(), lease, options,
				Lease.granted(grant.sentNanos(), grant.validFor())), startNanos);
		if (grant.validFor().compareTo(lease) < 0) {
			this.renewer.confirm(handle);
		}
		return handle;
	}

	private RedisLockHandle register(RedisLockHandle handle, long startNanos) {
		String key = handle.key();
		long fencingToken = handle.fencingToken();
		LockOptions options = handle.options();
		this.byThread.get().put(key, handle);
		this.all.add(handle);
		if (options.isAutoRenewing()) {
			this.renewer.register(handle);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Acquired lock " + LockKeyQuoting.quote(key) + " with fencing token " + fencingToken);
		}
		this.listeners.acquired(handle, Duration.ofNanos(System.nanoTime() - startNanos));
		return handle;
	}

	/**
	 * Grants a lock that another thread of the client passed on without Redis: the key keeps its
	 * owner token, and the lease counts from its last renewal.
	 */
	RedisLockHandle grantPassed(String key, LocalQueue.Baton baton, Duration lease, LockOptions options,
			long startNanos) {
		RedisLockHandle handle = register(new RedisLockHandle(this, key, baton.token(), baton.fencingToken(), lease,
				options, baton.lease()), startNanos);
		this.local.heldBy(handle);
		return handle;
	}

	void notAcquired(String key, String name, long startNanos) {
		logger.debug("Did not acquire lock " + LockKeyQuoting.quote(key));
		this.listeners.notAcquired(key, name, Duration.ofNanos(System.nanoTime() - startNanos));
	}

	void unavailable(String key, String name, long startNanos, LockUnavailableException failure) {
		this.listeners.unavailable(key, name, Duration.ofNanos(System.nanoTime() - startNanos), failure);
	}

	/** Ends a hold, passing the lock on within the client or releasing it in Redis. */
	void release(RedisLockHandle handle) {
		this.releases.release(handle);
	}

	/** Forgets a hold that ends: it is no longer renewed, listed, or re-entered by its thread. */
	void forget(RedisLockHandle handle) {
		this.renewer.unregister(handle);
		this.all.remove(handle);
		if (Thread.currentThread() == handle.owner()) {
			this.byThread.get().remove(handle.key(), handle);
		}
	}

	/**
	 * Marks lost every hold of the client that holds the key with the same owner token as the
	 * given one: a lock passed on between threads keeps its token, so news that the token no
	 * longer holds the key concerns the hold it was passed to as well.
	 */
	void tokenLost(RedisLockHandle handle, String reason) {
		if (handle.isHeldInRedis()) {
			leaseLost(handle, reason);
		}
		for (RedisLockHandle other : this.all) {
			if (other != handle && other.key().equals(handle.key()) && other.token().equals(handle.token())) {
				leaseLost(other, reason);
			}
		}
	}

	void leaseLost(RedisLockHandle handle, String reason) {
		if (handle.markLeaseLost()) {
			logger.warn("Lost the lease of lock " + LockKeyQuoting.quote(handle.key()) + " after " + handle.heldFor().toMillis() + "ms: "
					+ reason + "; another holder may run at the same time");
			this.listeners.leaseLost(handle);
		}
	}

	/**
	 * Returns the locks held now, by any thread; forgets those whose holder thread ended without
	 * releasing them once their lease has run out.
	 */
	List<RedisLockHandle> held() {
		this.all.removeIf((handle) -> !handle.owner().isAlive() && handle.isPastDeadline());
		return this.all.stream().filter(RedisLockHandle::isHeldInRedis).toList();
	}

	/** Returns the locks held now on a key: normally none or one. */
	List<RedisLockHandle> held(String key) {
		return this.all.stream().filter((handle) -> handle.key().equals(key) && handle.isHeldInRedis()).toList();
	}

	/**
	 * Ends the holds of a key whatever their thread; see {@link LockReleases#forceRelease}.
	 */
	boolean forceRelease(String key) {
		return this.releases.forceRelease(key);
	}

	void renewed(int renewed, int roundTrips) {
		this.listeners.renewed(renewed, roundTrips);
	}

	@Override
	public void close() {
		this.renewer.close();
	}

}
