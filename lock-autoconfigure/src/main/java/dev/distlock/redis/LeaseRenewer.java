package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessException;

/**
 * Renews the leases of all auto-renewing locks of one client from a single thread, every third
 * of the lease, in batches of up to {@link RenewalBatches#MAX_BATCH} keys per round trip. A lock
 * stops being renewed when it is released, when its holder thread has died, and when its lease
 * is found lost; renewal never extends a key that does not hold the lock's token.
 */
final class LeaseRenewer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final RedisLockCommands commands;

	private final LockHolds holds;

	private final Duration lease;

	private final boolean bySlot;

	private final Set<RedisLockHandle> renewing = ConcurrentHashMap.newKeySet();

	private final AtomicLong renewalsOfReleasedLocks = new AtomicLong();

	private volatile ScheduledExecutorService scheduler;

	LeaseRenewer(RedisLockCommands commands, LockHolds holds, Duration lease, boolean bySlot) {
		this.commands = commands;
		this.holds = holds;
		this.lease = lease;
		this.bySlot = bySlot;
	}

	Duration lease() {
		return this.lease;
	}

	void register(RedisLockHandle handle) {
		this.renewing.add(handle);
		if (this.scheduler == null) {
			start();
		}
	}

	void unregister(RedisLockHandle handle) {
		this.renewing.remove(handle);
	}

	int size() {
		return this.renewing.size();
	}

	/** Renewals that extended a lock whose release had completed before they were sent: always 0. */
	long renewalsOfReleasedLocks() {
		return this.renewalsOfReleasedLocks.get();
	}

	private synchronized void start() {
		if (this.scheduler == null) {
			long period = Math.max(1, this.lease.toMillis() / 3);
			ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "distlock-renewal");
				thread.setDaemon(true);
				return thread;
			});
			started.scheduleWithFixedDelay(this::renewAllSafely, period, period, TimeUnit.MILLISECONDS);
			this.scheduler = started;
		}
	}

	private void renewAllSafely() {
		try {
			renewAll();
		}
		catch (RuntimeException ex) {
			// Never let the scheduled task die: later rounds must still run.
			logger.warn("Lease renewal round failed; retrying next round", ex);
		}
	}

	void renewAll() {
		List<RedisLockHandle> due = new ArrayList<>(this.renewing.size());
		for (RedisLockHandle handle : this.renewing) {
			if (!handle.isHeldInRedis()) {
				this.renewing.remove(handle);
			}
			else if (!handle.owner().isAlive()) {
				this.renewing.remove(handle);
				logger.warn("Stopped renewing lock '" + handle.key() + "': its holder thread " + handle.owner().getName()
						+ " ended without releasing it; it expires with its lease");
			}
			else {
				due.add(handle);
			}
		}
		int renewed = 0;
		List<List<RedisLockHandle>> batches = RenewalBatches.of(due, this.bySlot);
		for (List<RedisLockHandle> batch : batches) {
			renewed += renew(batch);
		}
		this.holds.renewed(renewed, batches.size());
	}

	private int renew(List<RedisLockHandle> batch) {
		long sent = System.nanoTime();
		boolean[] results;
		try {
			results = this.commands.renew(batch, this.lease.toMillis());
		}
		catch (DataAccessException | IllegalStateException ex) {
			batch.forEach((handle) -> unreachable(handle, sent, ex));
			return 0;
		}
		int renewed = 0;
		for (int i = 0; i < results.length; i++) {
			RedisLockHandle handle = batch.get(i);
			if (results[i]) {
				handle.renewed(sent);
				renewed++;
				long released = handle.releasedNanos();
				if (released != 0 && released - sent < 0) {
					this.renewalsOfReleasedLocks.incrementAndGet();
				}
			}
			else if (handle.isHeldInRedis()) {
				this.renewing.remove(handle);
				this.holds.leaseLost(handle, "its key was gone or held by another owner when renewing");
			}
		}
		return renewed;
	}

	private void unreachable(RedisLockHandle handle, long now, Exception ex) {
		if (now - handle.lastRenewedNanos() >= this.lease.toNanos() && handle.isHeldInRedis()) {
			this.renewing.remove(handle);
			this.holds.leaseLost(handle, "Redis was unreachable for longer than the lease (" + ex.getMessage() + ")");
		}
		else {
			logger.debug("Could not renew lock '" + handle.key() + "'; retrying next round", ex);
		}
	}

	@Override
	public synchronized void close() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
		}
		this.renewing.clear();
	}

}
