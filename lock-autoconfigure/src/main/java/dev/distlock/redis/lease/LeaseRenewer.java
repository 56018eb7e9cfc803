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
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.DaemonThreads;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RenewalReply;

/**
 * Renews the leases of all auto-renewing locks of one client, confirms hand-overs, and
 * watches every hold's local deadline. One flow, read top-down:
 * <ol>
 * <li><b>Rounds.</b> A hold is {@linkplain #register registered} when it is granted. On
 * the renewal thread ({@code distlock-renewal}, started with the first registration) a
 * round runs every third of the lease ({@link #renewAll}): it drops the holds that have
 * ended, whose holder thread died, or whose lease was lost (telling the
 * {@link RenewalListener} of the last two), claims those that are due, splits them into
 * batches of up to {@value #MAX_BATCH} keys (on a Redis Cluster, of one hash slot each,
 * as a script may only touch keys of one slot), and hands each batch to a sender
 * thread.</li>
 * <li><b>Sending.</b> The round thread never waits for Redis: {@value #SENDER_THREADS}
 * sender threads ({@code distlock-renewal-sender}) send the batches, one owner-checked
 * renewal script call each. A hold counts as being sent (it is <em>claimed</em>) until
 * its batch is answered or a renewal period has passed, after which it may be sent again,
 * so one command stuck in a blackhole never keeps a hold from being renewed past its
 * deadline, and a round never sends a hold that the round before still has in
 * flight.</li>
 * <li><b>Answers.</b> A confirmed renewal extends the hold's local validity from the time
 * the batch was sent (where replicas must acknowledge grants, only a renewal they
 * acknowledged: one the master applied alone would not survive a failover to them); a key
 * found gone or owned by someone else has its token reported lost. When the last batch of
 * a round is answered, the listener is told how many leases the round renewed.</li>
 * <li><b>Confirmations.</b> A lock handed over to a waiter is kept by Redis only for its
 * claim window. If a hold registered on the claim lasts a third of what was left of it
 * (the hand-over's own hold, or one passed the lock on the claim within the client), and
 * nothing confirmed the token meanwhile, its deadline task (below) calls
 * {@link #confirm}, which extends it to the holder's lease on a sender thread, and sends
 * the confirmation again every {@value #RETRY_MILLIS} ms on the renewal thread while it
 * gets no answer and the hold lasts. {@link #confirmSoon} sends one owner-checked renewal
 * the same way, once; {@link #confirmNow} sends it on the calling thread;
 * {@link #renewSoon} runs a round out of turn (after a reconnect).</li>
 * <li><b>Deadlines.</b> Every hold, renewed or not ({@link #watchDeadline}), has one task
 * on the renewal thread due at its local deadline (a hand-over's is due at its
 * confirmation point first); a task that finds the deadline moved by a renewal waits for
 * the new one, and one that finds it passed while the hold lasts reports the lease lost,
 * even if no reply from Redis ever comes. The task of a hold that is unregistered is
 * dropped at once (it does nothing if it comes due) and taken out of the thread's queue
 * later, when the thread runs anyway or every {@value #DROP_BATCH} releases, so that a
 * release does not wake the thread.</li>
 * </ol>
 * A lock stops being renewed when it is released, when its holder thread has died, and
 * when its lease is lost; renewal never extends a key that does not hold the lock's
 * token. Once {@linkplain #close closed}, nothing runs any more and the locks expire with
 * their leases.
 */
public final class LeaseRenewer<H extends RenewedHold> implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	/** The most keys renewed by one script call. */
	static final int MAX_BATCH = 100;

	/**
	 * Threads that send batches: two, so that a confirmation need not wait behind a whole
	 * round; more would only queue on the same connection.
	 */
	private static final int SENDER_THREADS = 2;

	/**
	 * Where a hold on a hand-over's claim is confirmed: after one part in this many of
	 * what is left of its claim window at its registration, so that one held for less is
	 * released without a confirmation, and one held longer has the rest of the window for
	 * the confirmation and its retries.
	 */
	static final int CONFIRM_AFTER_PART = 3;

	private static final String RENEWED_LEASE_RAN_OUT = "its lease ran out before Redis confirmed a renewal";

	private static final String FIXED_LEASE_RAN_OUT = "its fixed lease ran out while the lock was still held";

	/** How long an unanswered hand-over confirmation waits before it is sent again. */
	private static final long RETRY_MILLIS = 50;

	private static final Future<?> DONE = CompletableFuture.completedFuture(null);

	/**
	 * How many deadline tasks of unregistered holds may wait to be cancelled before the
	 * renewal thread is woken to cancel them.
	 */
	static final int DROP_BATCH = 64;

	private final RedisLockCommands commands;

	private final RenewalListener<H> listener;

	private final Duration lease;

	/**
	 * The renewal period: how often rounds run, and how long a hold stays claimed by an
	 * unanswered batch.
	 */
	private final long periodNanos;

	private final boolean bySlot;

	/** The holds registered for renewal. */
	private final Set<H> renewing = ConcurrentHashMap.newKeySet();

	/** The holds claimed by a batch not yet answered, with the time it was claimed. */
	private final Map<H, Long> sending = new ConcurrentHashMap<>();

	/** The holds whose deadline is watched, with the check due at their deadline. */
	private final Map<H, DeadlineCheck> watched = new ConcurrentHashMap<>();

	private final AtomicLong renewalsOfReleasedLocks = new AtomicLong();

	/**
	 * The deadline tasks of unregistered holds, cancelled on the renewal thread when it
	 * runs anyway or when {@value #DROP_BATCH} have gathered, so that a release does not
	 * wake it.
	 */
	private final Queue<DeadlineCheck> dropped = new ConcurrentLinkedQueue<>();

	private final AtomicInteger droppedCount = new AtomicInteger();

	/**
	 * Its threads started at once and its queue lock-free, so that handing it a batch
	 * never parks the caller: a reactive grant's hand-over confirmation is handed over on
	 * a Redis event loop.
	 */
	private final ThreadPoolExecutor senders = new ThreadPoolExecutor(SENDER_THREADS, SENDER_THREADS, 0,
			TimeUnit.MILLISECONDS, new LinkedTransferQueue<>(), DaemonThreads.named("distlock-renewal-sender"));

	/** The renewal thread, created on first use; guarded by this renewer's monitor. */
	private volatile @Nullable ScheduledThreadPoolExecutor thread;

	private volatile boolean roundsStarted;

	/** Whether the sweep of far deadlines runs ({@link #sweep}). */
	private volatile boolean sweeping;

	private boolean closed;

	/**
	 * Creates the renewer of one client; its thread starts with the first registration.
	 * @param commands the Redis commands renewals are sent with
	 * @param listener told what renewal finds out
	 * @param lease the lease each renewal extends a hold to
	 * @param bySlot whether Redis is a cluster, where each batch holds one slot's keys
	 */
	public LeaseRenewer(RedisLockCommands commands, RenewalListener<H> listener, Duration lease, boolean bySlot) {
		this.commands = commands;
		this.listener = listener;
		this.lease = lease;
		this.periodNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, lease.toMillis() / 3));
		this.bySlot = bySlot;
		this.senders.prestartAllCoreThreads();
	}

	/** Returns the lease each renewal extends a hold to. */
	public Duration lease() {
		return this.lease;
	}

	/**
	 * Looks after a new hold until it ends or is unregistered: an auto-renewing hold is
	 * renewed from the next round on, and reported lost if its local deadline passes
	 * before Redis confirms a renewal; a hold with a fixed lease has its deadline watched
	 * ({@link #watchDeadline}). A hold that Redis keeps only for its claim window (a
	 * hand-over) is confirmed ({@link #confirm}) if it lasts to a third of what is left
	 * of that window, by the task that watches its deadline, unless the token was
	 * confirmed meanwhile: a short hold is released without a confirmation, and a longer
	 * one keeps two thirds of the window for the confirmation and its retries.
	 * @param handle the hold
	 * @param autoRenewing whether its lease is renewed while it is held
	 * @param claimedOnly whether it is to be confirmed at its confirmation point: Redis
	 * keeps it only for its claim window, and the caller does not confirm it at once
	 */
	public void register(H handle, boolean autoRenewing, boolean claimedOnly) {
		if (autoRenewing) {
			this.renewing.add(handle);
			if (!this.roundsStarted) {
				startRounds();
			}
		}
		watch(handle, autoRenewing ? RENEWED_LEASE_RAN_OUT : FIXED_LEASE_RAN_OUT, claimedOnly);
	}

	/**
	 * Reports a hold that is not renewed (a fixed lease) lost if its local deadline
	 * passes before it ends or is unregistered.
	 */
	public void watchDeadline(H handle) {
		watch(handle, FIXED_LEASE_RAN_OUT, false);
	}

	/**
	 * Stops renewing the hold and watching its deadline. Its deadline task is cancelled
	 * later, on the renewal thread, with others (it does nothing if it comes first): a
	 * release, blocking or on an event loop, neither waits for the thread's queue nor
	 * wakes the thread.
	 */
	public void unregister(H handle) {
		this.renewing.remove(handle);
		DeadlineCheck check = this.watched.remove(handle);
		if (check != null) {
			drop(check);
		}
	}

	/** Returns how many holds are renewed. */
	public int size() {
		return this.renewing.size();
	}

	/** Returns how many holds have their deadline watched, renewed or not. */
	public int watchedDeadlines() {
		return this.watched.size();
	}

	/**
	 * Renewals that extended a lock whose release had completed before they were sent:
	 * always 0.
	 */
	public long renewalsOfReleasedLocks() {
		return this.renewalsOfReleasedLocks.get();
	}

	// Rounds

	/**
	 * Runs a renewal round on the calling thread: renews the leases that are due, and
	 * stops renewing the holds that ended, whose holder died, or whose lease was lost.
	 */
	public void renewAll() {
		List<H> due = new ArrayList<>(this.renewing.size());
		long now = System.nanoTime();
		for (H handle : this.renewing) {
			if (handle.hasEnded()) {
				this.renewing.remove(handle);
			}
			else if (!handle.isHolderAlive()) {
				this.renewing.remove(handle);
				this.listener.holderDied(handle);
			}
			else if (handle.isLeaseLost()) {
				this.renewing.remove(handle);
				this.listener.leaseLost(handle, RENEWED_LEASE_RAN_OUT);
			}
			else if (claim(handle, now, this.periodNanos)) {
				due.add(handle);
			}
		}
		List<List<H>> batches = batches(due);
		if (batches.isEmpty()) {
			this.listener.renewed(0, 0);
			return;
		}
		// The batches are answered on the sender threads in any order: the last one
		// tells the listener about the round.
		AtomicInteger outstanding = new AtomicInteger(batches.size());
		AtomicInteger renewedInRound = new AtomicInteger();
		for (List<H> batch : batches) {
			send(batch, now, () -> {
				int total = renewedInRound.addAndGet(Math.max(renew(batch, this.lease, now, false), 0));
				if (outstanding.decrementAndGet() == 0) {
					this.listener.renewed(total, batches.size());
				}
			});
		}
	}

	/**
	 * Runs a renewal round now, on the renewal thread: after a reconnect, holds are
	 * confirmed anew.
	 */
	public void renewSoon() {
		ScheduledThreadPoolExecutor running = this.thread;
		if (running != null && this.roundsStarted && !running.isShutdown()) {
			try {
				running.execute(this::renewAllSafely);
			}
			catch (RuntimeException ex) {
				// Closed.
			}
		}
	}

	private void renewAllSafely() {
		cancelDropped();
		try {
			renewAll();
		}
		catch (RuntimeException ex) {
			// Never let the scheduled task die: later rounds must still run.
			logger.warn("Lease renewal round failed; retrying next round", ex);
		}
	}

	/**
	 * Splits the holds to renew into batches of at most {@link #MAX_BATCH} keys; with
	 * {@code bySlot}, every batch holds keys of a single hash slot.
	 */
	private List<List<H>> batches(Collection<H> handles) {
		if (!this.bySlot) {
			return chunks(new ArrayList<>(handles));
		}
		Map<Integer, List<H>> slots = new LinkedHashMap<>();
		for (H handle : handles) {
			slots.computeIfAbsent(LockKeyspace.slot(handle.key()), (slot) -> new ArrayList<>()).add(handle);
		}
		List<List<H>> batches = new ArrayList<>();
		slots.values().forEach((slot) -> batches.addAll(chunks(slot)));
		return batches;
	}

	private static <H> List<List<H>> chunks(List<H> handles) {
		List<List<H>> batches = new ArrayList<>();
		for (int from = 0; from < handles.size(); from += MAX_BATCH) {
			batches.add(handles.subList(from, Math.min(from + MAX_BATCH, handles.size())));
		}
		return batches;
	}

	// Confirmations

	/**
	 * Extends a hand-over from its claim window to the holder's lease, without waiting
	 * for it; a confirmation that gets no answer, or that does not count because the
	 * holder sent an extension beside it ({@link Lease#confirmed}), is sent again while
	 * the hold lasts.
	 */
	public void confirm(H handle) {
		sendConfirmation(handle, true);
	}

	/**
	 * Has Redis confirm, without waiting for it, that the hold's key still holds its
	 * owner token: an owner-checked renewal to the hold's lease, sent once on a sender
	 * thread, which extends the validity of every hold sharing the token or reports the
	 * token lost. The hold may have ended since (its lock passed to another thread of the
	 * client with the same token).
	 */
	public void confirmSoon(H handle) {
		sendConfirmation(handle, false);
	}

	/**
	 * Has Redis confirm, on the calling thread, that the hold's key still holds its owner
	 * token, as {@link #confirmSoon} does.
	 * @return whether it does; if not, the token was reported lost
	 * @throws RuntimeException a {@code DataAccessException} if Redis did not answer
	 */
	public boolean confirmNow(H handle) {
		long sent = System.nanoTime();
		Duration validFor = handle.leaseTime();
		RenewalReply reply = this.commands.renew(List.of(handle.key()), List.of(handle.token()), validFor.toMillis());
		boolean confirmed = apply(List.of(handle), sent, validFor, reply) == 1;
		this.listener.renewed(confirmed ? 1 : 0, 1);
		return confirmed;
	}

	/**
	 * Sends an owner-checked renewal of one hold to its lease on a sender thread: a round
	 * of one batch.
	 * @param retry whether to send it again, every {@value #RETRY_MILLIS} ms on the
	 * renewal thread, while it gets no answer and the hold lasts with its lease not lost
	 * (a hand-over expires with its claim window otherwise)
	 */
	private void sendConfirmation(H handle, boolean retry) {
		long now = System.nanoTime();
		claim(handle, now, 0);
		List<H> batch = List.of(handle);
		send(batch, now, () -> {
			// A hand-over's confirmation only raises the key's expiry: it must not undo
			// an extension its holder sent meanwhile.
			int renewed = renew(batch, handle.leaseTime(), now, retry);
			this.listener.renewed(Math.max(renewed, 0), 1);
			// Sent again if it got no answer, or if it did not count: an extension sent
			// or answered meanwhile may have run after it (the hold is still on its
			// claim, see Lease#confirmed).
			boolean again = renewed < 0 || (renewed > 0 && handle.isClaimOnly());
			if (retry && again && !handle.hasEnded() && !handle.isLeaseLost()) {
				try {
					startRounds().schedule(() -> confirm(handle), RETRY_MILLIS, TimeUnit.MILLISECONDS);
				}
				catch (RuntimeException ex) {
					// Closed: the lock expires with its claim window.
				}
			}
		});
	}

	// Sending

	/**
	 * Claims a hold for the batch about to be sent at {@code now}, unless an earlier
	 * batch with it, sent less than {@code periodNanos} ago, is still unanswered.
	 * @return whether the hold is to be sent now
	 */
	private boolean claim(H handle, long now, long periodNanos) {
		return this.sending.compute(handle,
				(held, since) -> (since == null || now - since > periodNanos) ? now : since) == now;
	}

	/**
	 * Runs the task that sends a batch of holds claimed at {@code marker} on a sender
	 * thread; once closed, only gives up their claims.
	 */
	private void send(List<H> batch, long marker, Runnable task) {
		try {
			this.senders.execute(task);
		}
		catch (RuntimeException ex) {
			// Closed: the locks expire with their leases.
			batch.forEach((handle) -> this.sending.remove(handle, marker));
		}
	}

	/**
	 * Renews one batch of holds claimed at {@code marker}, on a sender thread.
	 * @param validFor the lease each renewal extends the holds to
	 * @param atLeast whether the batch is one hand-over's confirmation, which only raises
	 * the key's expiry to the lease
	 * @return how many leases were renewed, or -1 if Redis did not answer or too few
	 * replicas acknowledged the renewals
	 */
	private int renew(List<H> batch, Duration validFor, long marker, boolean atLeast) {
		if (batch.stream().noneMatch((handle) -> Long.valueOf(marker).equals(this.sending.get(handle)))) {
			// Every hold of the batch was sent again since (a stalled connection):
			// nothing left to do.
			return 0;
		}
		long sent = System.nanoTime();
		RenewalReply reply;
		try {
			reply = atLeast ? this.commands.renewAtLeast(batch.get(0).key(), batch.get(0).token(), validFor.toMillis())
					: this.commands.renew(batch.stream().map(RenewedHold::key).toList(),
							batch.stream().map(RenewedHold::token).toList(), validFor.toMillis());
		}
		catch (RuntimeException ex) {
			logger.debug("Could not renew " + batch.size() + " lock(s); retrying until their leases run out", ex);
			return -1;
		}
		finally {
			batch.forEach((handle) -> this.sending.remove(handle, marker));
		}
		return apply(batch, sent, validFor, reply);
	}

	/**
	 * Applies Redis's answers to a batch sent at the given time: extends the validity of
	 * the holds it renewed, if enough replicas acknowledged the renewals, and reports the
	 * others' tokens lost.
	 * @return how many were renewed, or -1 if too few replicas acknowledged the renewals
	 */
	private int apply(List<H> batch, long sent, Duration validFor, RenewalReply reply) {
		boolean[] results = reply.renewed();
		int renewed = 0;
		for (int i = 0; i < results.length; i++) {
			H handle = batch.get(i);
			if (results[i]) {
				if (reply.acknowledged()) {
					handle.confirmed(sent, validFor);
					renewed++;
				}
				long released = handle.releasedNanos();
				if (released != 0 && released - sent < 0) {
					this.renewalsOfReleasedLocks.incrementAndGet();
				}
			}
			else {
				this.listener.tokenLost(handle, "its key was gone or held by another owner when renewing");
			}
		}
		if (!reply.acknowledged()) {
			logger.debug("Renewed " + batch.size() + " lock(s) on the master, but only " + reply.acknowledgedReplicas()
					+ " replica(s) acknowledged it: their deadlines stay where the last acknowledged renewal put them; "
					+ "retrying until their leases run out");
			return -1;
		}
		return renewed;
	}

	// Deadlines

	/**
	 * Watches the deadline of a hold until it is unregistered or ends: one task on the
	 * renewal thread, due at the deadline, queued at once if the deadline is near, or by
	 * the {@linkplain #sweep sweep} once it comes near.
	 * @param reason why a hold whose deadline passed counts as lost, for the log
	 */
	private void watch(H hold, String reason, boolean confirmFirst) {
		this.watched.compute(hold, (key, previous) -> {
			if (previous != null) {
				drop(previous);
			}
			return schedule(new DeadlineCheck(hold, reason, confirmFirst));
		});
	}

	/**
	 * Schedules a check at the hold's deadline, or, for a hand-over still to be
	 * confirmed, at its confirmation point: a third ({@link #CONFIRM_AFTER_PART}) of the
	 * way from now to the end of its claim window. A check due later than two renewal
	 * periods from now is left to the sweep, which runs every period and queues it while
	 * it is still a period or more away: most holds end long before, and cost the renewal
	 * thread's queue nothing.
	 */
	private DeadlineCheck schedule(DeadlineCheck check) {
		long due = check.confirmFirst ? check.confirmAtNanos : check.hold.validUntilNanos();
		long delay = Math.max(0, due - System.nanoTime());
		try {
			if (delay > 2 * this.periodNanos) {
				startSweep();
			}
			else {
				check.task = thread().schedule(check, delay, TimeUnit.NANOSECONDS);
				check.queued = true;
			}
		}
		catch (RejectedExecutionException ex) {
			// Closed: nothing is reported any more.
		}
		return check;
	}

	/**
	 * Queues the checks of the holds whose deadlines have come within two renewal
	 * periods, on the renewal thread, every period once a deadline was left to it;
	 * forgets those of holds that ended without being unregistered.
	 */
	private void sweep() {
		cancelDropped();
		for (Map.Entry<H, DeadlineCheck> entry : this.watched.entrySet()) {
			DeadlineCheck check = entry.getValue();
			if (check.queued) {
				continue;
			}
			if (check.hold.hasEnded()) {
				this.watched.remove(check.hold, check);
			}
			else {
				this.watched.computeIfPresent(check.hold,
						(key, current) -> (current == check) ? schedule(check) : current);
			}
		}
	}

	private void sweepSafely() {
		try {
			sweep();
		}
		catch (RuntimeException ex) {
			// Never let the scheduled task die: later sweeps must still run.
			logger.warn("Sweep of lease deadlines failed; retrying next period", ex);
		}
	}

	private void startSweep() {
		if (!this.sweeping) {
			startSweepOnce();
		}
	}

	private synchronized void startSweepOnce() {
		if (!this.sweeping) {
			thread().scheduleWithFixedDelay(this::sweepSafely, this.periodNanos, this.periodNanos,
					TimeUnit.NANOSECONDS);
			this.sweeping = true;
		}
	}

	/**
	 * Reports the hold lost if its deadline passed while it lasts, or waits for its new
	 * deadline if a renewal moved it. The listener is told at most once per hold: it
	 * marks the lease lost first.
	 */
	private void checkDeadline(DeadlineCheck check) {
		cancelDropped();
		H hold = check.hold;
		if (check.confirmFirst && !hold.hasEnded() && !hold.isLeaseLost()) {
			// A hand-over that lasted to its confirmation point: extend it to its lease
			// (unless a pass's confirmation or an extension already did), and watch its
			// deadline from now on.
			if (hold.isClaimOnly()) {
				confirm(hold);
			}
			watchDeadlineAgain(check);
			return;
		}
		// A deadline that has passed never moves again, so reading it before the end
		// means the hold was still held past its deadline.
		boolean past = hold.validUntilNanos() - System.nanoTime() <= 0;
		if (hold.hasEnded()) {
			this.watched.remove(hold, check);
		}
		else if (past) {
			this.watched.remove(hold, check);
			this.listener.leaseLost(hold, check.reason);
		}
		else if (hold.isLeaseLost()) {
			// Found lost otherwise (a renewal found the key gone): already told.
			this.watched.remove(hold, check);
		}
		else {
			watchDeadlineAgain(check);
		}
	}

	/**
	 * Replaces a check that ran with one due at the hold's deadline as it is now, unless
	 * the hold was unregistered or watched anew meanwhile.
	 */
	private void watchDeadlineAgain(DeadlineCheck check) {
		this.watched.computeIfPresent(check.hold, (key, current) -> (current == check)
				? schedule(new DeadlineCheck(check.hold, check.reason, false)) : current);
	}

	/**
	 * Drops the deadline check of a hold that is unregistered or watched anew: it does
	 * nothing from now on, and if it is queued on the renewal thread, it is taken out of
	 * the queue later ({@link #dropLater}).
	 */
	private void drop(DeadlineCheck check) {
		if (check.queued) {
			dropLater(check);
		}
		else {
			check.dropped = true;
		}
	}

	/**
	 * Leaves the deadline task of an unregistered hold to be cancelled on the renewal
	 * thread when it next runs, waking it only for every {@value #DROP_BATCH}th, so that
	 * the tasks it keeps for holds that ended stay few.
	 */
	private void dropLater(DeadlineCheck check) {
		check.dropped = true;
		this.dropped.add(check);
		if (this.droppedCount.incrementAndGet() % DROP_BATCH == 0) {
			try {
				thread().execute(this::cancelDropped);
			}
			catch (RejectedExecutionException ex) {
				// Closed: the tasks will not run either.
				cancelDropped();
			}
		}
	}

	/**
	 * Cancels the deadline tasks of unregistered holds (dropping them from the queue).
	 */
	private void cancelDropped() {
		DeadlineCheck check;
		while ((check = this.dropped.poll()) != null) {
			check.task.cancel(false);
		}
	}

	// The renewal thread

	/**
	 * Starts the rounds unless started already: a round every renewal period, counted
	 * from the end of the one before.
	 * @return the renewal thread
	 * @throws RejectedExecutionException once closed
	 */
	private synchronized ScheduledExecutorService startRounds() {
		ScheduledThreadPoolExecutor running = thread();
		if (!this.roundsStarted) {
			running.scheduleWithFixedDelay(this::renewAllSafely, this.periodNanos, this.periodNanos,
					TimeUnit.NANOSECONDS);
			this.roundsStarted = true;
		}
		return running;
	}

	/**
	 * Returns the renewal thread, started (but without the rounds) if need be; a task
	 * cancelled before it runs is dropped from its queue at once.
	 * @throws RejectedExecutionException once closed
	 */
	private synchronized ScheduledThreadPoolExecutor thread() {
		ScheduledThreadPoolExecutor running = this.thread;
		if (this.closed) {
			throw new RejectedExecutionException("Lease renewal has been closed");
		}
		if (running == null) {
			running = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("distlock-renewal"));
			running.setRemoveOnCancelPolicy(true);
			this.thread = running;
		}
		return running;
	}

	/** Stops renewing: the threads stop, and every hold is forgotten. */
	@Override
	public void close() {
		synchronized (this) {
			this.closed = true;
			ScheduledThreadPoolExecutor running = this.thread;
			if (running != null) {
				running.shutdownNow();
			}
		}
		this.senders.shutdownNow();
		this.renewing.clear();
		this.watched.clear();
	}

	/**
	 * The task due at a hold's deadline; once dropped (the hold unregistered, or watched
	 * anew), it does nothing, even if it runs before it is cancelled.
	 */
	private final class DeadlineCheck implements Runnable {

		private final H hold;

		/** Why a hold whose deadline passed counts as lost, for the log. */
		private final String reason;

		/**
		 * Whether the check is due at the confirmation point of a hand-over, where it
		 * confirms the hold, rather than at the deadline.
		 */
		private final boolean confirmFirst;

		/** When a check that confirms first is due, by {@link System#nanoTime()}. */
		private final long confirmAtNanos;

		private volatile Future<?> task = DONE;

		/**
		 * Whether it was handed to the renewal thread; if not, the sweep hands it over
		 * when its deadline comes near.
		 */
		private volatile boolean queued;

		private volatile boolean dropped;

		DeadlineCheck(H hold, String reason, boolean confirmFirst) {
			this.hold = hold;
			this.reason = reason;
			this.confirmFirst = confirmFirst;
			if (confirmFirst) {
				long now = System.nanoTime();
				this.confirmAtNanos = now + Math.max(0, hold.validUntilNanos() - now) / CONFIRM_AFTER_PART;
			}
			else {
				this.confirmAtNanos = 0;
			}
		}

		@Override
		public void run() {
			if (!this.dropped) {
				checkDeadline(this);
			}
			else {
				cancelDropped();
			}
		}

	}

}
