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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.redis.protocol.DaemonThreads;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RenewalReply;

/**
 * Sends renewal batches to Redis on two threads of its own, so that the thread that
 * composes the rounds never waits for Redis, and applies the answers: a confirmed renewal
 * extends the hold's local validity from the time the batch was sent (where replicas must
 * acknowledge grants, only a renewal they acknowledged: one the master applied alone
 * would not survive a failover to them); a key found gone or owned by someone else marks
 * the lease lost. A hold counts as being sent until its batch is answered or a renewal
 * period has passed, after which it may be sent again, so one command stuck in a
 * blackhole never keeps a hold from being renewed.
 */
final class RenewalSender<H extends RenewedHold> implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(RenewalSender.class);

	/**
	 * Threads that send batches: two, so that a confirmation need not wait behind a whole
	 * round; more would only queue on the same connection.
	 */
	private static final int SENDER_THREADS = 2;

	private final RedisLockCommands commands;

	private final RenewalListener<H> listener;

	private final Map<H, Long> sending = new ConcurrentHashMap<>();

	private final AtomicLong renewalsOfReleasedLocks = new AtomicLong();

	/**
	 * Its threads started at once and its queue lock-free, so that handing it a batch
	 * never parks the caller: a reactive grant's hand-over confirmation is handed over on
	 * a Redis event loop.
	 */
	private final ThreadPoolExecutor senders = new ThreadPoolExecutor(SENDER_THREADS, SENDER_THREADS, 0,
			TimeUnit.MILLISECONDS, new LinkedTransferQueue<>(), DaemonThreads.named("distlock-renewal-sender"));

	RenewalSender(RedisLockCommands commands, RenewalListener<H> listener) {
		this.commands = commands;
		this.listener = listener;
		this.senders.prestartAllCoreThreads();
	}

	/**
	 * Renewals that extended a lock whose release had completed before they were sent.
	 */
	long renewalsOfReleasedLocks() {
		return this.renewalsOfReleasedLocks.get();
	}

	/**
	 * Claims a hold for the batch about to be sent at {@code now}, unless an earlier
	 * batch with it, sent less than a period ago, is still unanswered.
	 * @return whether the hold is to be sent now
	 */
	boolean claim(H handle, long now, long periodNanos) {
		return this.sending.compute(handle,
				(held, since) -> (since == null || now - since > periodNanos) ? now : since) == now;
	}

	/**
	 * Sends a batch of holds claimed at {@code marker} on a sender thread.
	 * @param validFor the lease each renewal extends the holds to
	 * @param done told how many leases were renewed, or -1 if Redis did not answer or too
	 * few replicas acknowledged the renewals
	 */
	void send(List<H> batch, Duration validFor, long marker, IntConsumer done) {
		try {
			this.senders.execute(() -> done.accept(renew(batch, validFor, marker)));
		}
		catch (RuntimeException ex) {
			// Closed: the locks expire with their leases.
			batch.forEach((handle) -> this.sending.remove(handle, marker));
		}
	}

	/**
	 * Renews one batch.
	 * @return how many leases were renewed, or -1 if Redis did not answer or too few
	 * replicas acknowledged the renewals
	 */
	private int renew(List<H> batch, Duration validFor, long marker) {
		if (batch.stream().noneMatch((handle) -> Long.valueOf(marker).equals(this.sending.get(handle)))) {
			// Every hold of the batch was sent again since (a stalled connection):
			// nothing left to do.
			return 0;
		}
		long sent = System.nanoTime();
		RenewalReply reply;
		try {
			reply = this.commands.renew(batch.stream().map(RenewedHold::key).toList(),
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
	 * Renews one hold on the calling thread.
	 * @return whether Redis renewed it (and, where replicas must acknowledge renewals,
	 * enough of them did); if the key no longer holds its token, the token was reported
	 * lost
	 * @throws RuntimeException if Redis did not answer
	 */
	boolean renewNow(H handle, Duration validFor) {
		long sent = System.nanoTime();
		RenewalReply reply = this.commands.renew(List.of(handle.key()), List.of(handle.token()), validFor.toMillis());
		return apply(List.of(handle), sent, validFor, reply) == 1;
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

	@Override
	public void close() {
		this.senders.shutdownNow();
	}

}
