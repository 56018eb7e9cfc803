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

package dev.distlock.redis.lease;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * Renews the leases of all auto-renewing locks of one client, every third of the lease,
 * in batches of up to {@link RenewalBatches#MAX_BATCH} keys per round trip, and confirms
 * hand-overs that Redis keeps only for their claim window. The round thread never waits
 * for Redis: batches go out on sender threads, and a batch that has not been answered
 * within a renewal period is sent again, so one slow command never holds renewal up past
 * a deadline. A lock whose local validity ran out before Redis confirmed a renewal is
 * marked lost at once, and every hold, renewed or not, is reported lost when its local
 * deadline passes while it is held ({@link LeaseDeadlines}), even if no reply from Redis
 * ever comes. A lock stops being renewed when it is released, when its holder thread has
 * died, and when its lease is lost; renewal never extends a key that does not hold the
 * lock's token.
 */
public final class LeaseRenewer<H extends RenewedHold> implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final Duration lease;

	private final RenewalSender<H> sender;

	private final RenewalRoundComposer<H> rounds;

	private final RenewalScheduler scheduler;

	private final LeaseDeadlines<H> deadlines;

	private final HandOverConfirmer<H> handOvers;

	private final RenewalListener<H> listener;

	/**
	 * Creates the renewer of one client; its thread starts with the first registration.
	 * @param listener told what renewal finds out
	 * @param lease the lease each renewal extends a hold to
	 * @param bySlot whether Redis is a cluster, where each batch holds one slot's keys
	 */
	public LeaseRenewer(RedisLockCommands commands, RenewalListener<H> listener, Duration lease, boolean bySlot) {
		this.lease = lease;
		long periodNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, lease.toMillis() / 3));
		this.sender = new RenewalSender<>(commands, listener);
		this.rounds = new RenewalRoundComposer<>(this.sender, listener, lease, periodNanos, bySlot);
		this.scheduler = new RenewalScheduler(this::renewAllSafely, periodNanos);
		this.deadlines = new LeaseDeadlines<>(this.scheduler, listener);
		this.handOvers = new HandOverConfirmer<>(this.sender, listener, this.scheduler);
		this.listener = listener;
	}

	/** Returns the lease each renewal extends a hold to. */
	public Duration lease() {
		return this.lease;
	}

	/**
	 * Renews the hold from the next round on, until it ends or is unregistered, and
	 * reports it lost if its local deadline passes before Redis confirms a renewal.
	 */
	public void register(H handle) {
		this.rounds.add(handle);
		this.deadlines.watch(handle, "its lease ran out before Redis confirmed a renewal");
		if (!this.scheduler.isStarted()) {
			this.scheduler.start();
		}
	}

	/**
	 * Reports a hold that is not renewed (a fixed lease) lost if its local deadline
	 * passes before it ends or is unregistered.
	 */
	public void watchDeadline(H handle) {
		this.deadlines.watch(handle, "its fixed lease ran out while the lock was still held");
	}

	/** Stops renewing the hold and watching its deadline. */
	public void unregister(H handle) {
		this.rounds.remove(handle);
		this.deadlines.unwatch(handle);
	}

	/** Returns how many holds are renewed. */
	public int size() {
		return this.rounds.size();
	}

	/** Returns how many holds have their deadline watched, renewed or not. */
	public int watchedDeadlines() {
		return this.deadlines.size();
	}

	/**
	 * Renewals that extended a lock whose release had completed before they were sent:
	 * always 0.
	 */
	public long renewalsOfReleasedLocks() {
		return this.sender.renewalsOfReleasedLocks();
	}

	/**
	 * Extends a hand-over from its claim window to the holder's lease, without waiting
	 * for it; a confirmation that gets no answer is sent again while the claim window
	 * lasts.
	 */
	public void confirm(H handle) {
		this.handOvers.confirm(handle);
	}

	/**
	 * Has Redis confirm, without waiting for it, that the hold's key still holds its
	 * owner token: an owner-checked renewal to the hold's lease, sent once on a sender
	 * thread, which extends the validity of every hold sharing the token or reports the
	 * token lost. The hold may have ended since (its lock passed to another thread of the
	 * client with the same token).
	 */
	public void confirmSoon(H handle) {
		long now = System.nanoTime();
		this.sender.claim(handle, now, 0);
		this.sender.send(List.of(handle), handle.leaseTime(), now, new RenewalRound(this.listener, 1));
	}

	/**
	 * Has Redis confirm, on the calling thread, that the hold's key still holds its owner
	 * token, as {@link #confirmSoon} does.
	 * @return whether it does; if not, the token was reported lost
	 * @throws RuntimeException a {@code DataAccessException} if Redis did not answer
	 */
	public boolean confirmNow(H handle) {
		boolean confirmed = this.sender.renewNow(handle, handle.leaseTime());
		this.listener.renewed(confirmed ? 1 : 0, 1);
		return confirmed;
	}

	/**
	 * Runs a renewal round now, on the renewal thread: after a reconnect, holds are
	 * confirmed anew.
	 */
	public void renewSoon() {
		this.scheduler.runRoundSoon();
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

	/**
	 * Runs a renewal round on the calling thread: renews the leases that are due, and
	 * stops renewing the holds that ended, whose holder died, or whose lease was lost.
	 */
	public void renewAll() {
		this.rounds.renewAll();
	}

	/** Stops renewing: the thread and the senders stop, and every hold is forgotten. */
	@Override
	public synchronized void close() {
		this.scheduler.close();
		this.sender.close();
		this.rounds.clear();
		this.deadlines.clear();
	}

}
