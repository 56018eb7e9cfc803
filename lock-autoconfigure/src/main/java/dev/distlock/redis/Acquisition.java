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

package dev.distlock.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.HandOverMessage;

/**
 * What one acquisition in Redis knows between its attempts, and what it decides from that
 * without any I/O, the same for a blocking caller ({@link LockAcquirer}) and for reactive
 * work ({@link ReactiveAcquirer}): its owner token and lease; when its last attempt was
 * sent and how many fencing tokens that attempt reserved, from which a grant counts;
 * whether an attempt may have queued it; and the highest fencing counter an attempt
 * found.
 * <p>
 * A grant is trusted only while its lease, counted from its attempt's send, cannot have
 * run out by the local count: a reply that came later (a pause, a slow network) is
 * checked in Redis by another attempt, or let go. A hand-over told during a wait came
 * from a release after the last attempt that found the lock held, so its claim window
 * counts from that attempt's send. A hand-over at or below the highest fencing counter an
 * attempt found is void (it came before that attempt, and has lapsed since), and one
 * whose claim window may have run out is not trusted either.
 */
final class Acquisition {

	private final String key;

	private final String token;

	private final long leaseMillis;

	/** How long Redis keeps a lock it hands this acquisition over until it confirms. */
	private final long claimMillis;

	private long lastAttemptNanos;

	private int lastBlock = 1;

	private boolean mayBeQueued;

	/** Read by a reactive acquisition's cancellation, on whichever thread cancels. */
	private volatile boolean attempted;

	private long heldFence;

	/**
	 * How long after its attempt's send the last grant came, if it came too late to trust
	 * and no later attempt found the lock held; 0 if none did.
	 */
	private long lateGrantNanos;

	private long heldSentNanos;

	/** Set on the thread that waits, read where the acquisition ends. */
	private volatile WaitingAcquirers.@Nullable Waiting listedAsWaiting;

	/**
	 * Creates the state of one acquisition.
	 * @param key the Redis key of the lock
	 * @param token the owner token of every attempt
	 * @param leaseMillis the lease each attempt asks for
	 * @param claimMillis how long a release that hands the lock over keeps it until this
	 * acquisition confirms it
	 */
	Acquisition(String key, String token, long leaseMillis, long claimMillis) {
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
		this.claimMillis = claimMillis;
	}

	String key() {
		return this.key;
	}

	String token() {
		return this.token;
	}

	long leaseMillis() {
		return this.leaseMillis;
	}

	/**
	 * Records that an attempt is about to be sent.
	 * @param handOverChannel where the attempt asks to be told of a hand-over (it then
	 * takes a place in the lock's queue if the lock is held), or null
	 * @param block how many fencing tokens the attempt reserves
	 * @return whether an earlier attempt may have queued the acquisition
	 */
	boolean sending(@Nullable String handOverChannel, int block) {
		this.lastAttemptNanos = System.nanoTime();
		this.lastBlock = block;
		this.attempted = true;
		boolean queuedBefore = this.mayBeQueued;
		queueingOn(handOverChannel);
		return queuedBefore;
	}

	/**
	 * Records where the attempt being sent asks to be told of a hand-over, when that is
	 * known only as it is sent (a plain first attempt asks nowhere).
	 * @param handOverChannel the channel, or null
	 * @return the channel
	 */
	@Nullable String queueingOn(@Nullable String handOverChannel) {
		this.mayBeQueued |= handOverChannel != null;
		return handOverChannel;
	}

	/**
	 * Whether an attempt may have queued the acquisition, so that leaving must undo it.
	 */
	boolean mayBeQueued() {
		return this.mayBeQueued;
	}

	/**
	 * Whether an attempt was sent, so that an acquisition that ends without the lock may
	 * have something in Redis to undo.
	 */
	boolean attempted() {
		return this.attempted;
	}

	/**
	 * Returns what the last attempt was granted, valid for the lease from its send.
	 * @param reply the attempt's grant
	 * @return the grant, or null if it may have run out already
	 */
	@Nullable Grant granted(AcquireReply.Granted reply) {
		Grant grant = new Grant(reply.fencingToken(), this.lastBlock, this.lastAttemptNanos,
				Duration.ofMillis(this.leaseMillis));
		if (grant.hasRunOut()) {
			this.lateGrantNanos = Math.max(1, System.nanoTime() - this.lastAttemptNanos);
			return null;
		}
		return grant;
	}

	/**
	 * Returns how long after its request the last grant came, if it came too late to
	 * trust and no later attempt found the lock held: why an acquisition that ends
	 * without the lock did not get it.
	 * @return the time from the request to the late grant, or null if the last grant was
	 * trusted, or an attempt found the lock held after it
	 */
	@Nullable Duration lateGrant() {
		long nanos = this.lateGrantNanos;
		return (nanos > 0) ? Duration.ofNanos(nanos) : null;
	}

	/**
	 * Records that the last attempt found the lock held.
	 * @param held the attempt's reply
	 */
	void foundHeld(AcquireReply.Held held) {
		this.lateGrantNanos = 0;
		this.heldFence = Math.max(this.heldFence, held.fenceCounter());
		this.heldSentNanos = this.lastAttemptNanos;
	}

	/**
	 * Accepts a hand-over taken after a wait that followed the last attempt that found
	 * the lock held.
	 * @param handOver the hand-over, or null if none arrived
	 * @return the grant, valid for the claim window from that attempt's send, or null if
	 * there was none, it is void, or it may have run out
	 */
	@Nullable Grant handedOver(@Nullable HandOverMessage handOver) {
		if (handOver == null || handOver.fencingToken() <= this.heldFence) {
			return null;
		}
		Grant grant = new Grant(handOver.fencingToken(), handOver.block(), this.heldSentNanos,
				Duration.ofMillis(this.claimMillis));
		return grant.hasRunOut() ? null : grant;
	}

	/**
	 * Returns the acquisition's entry among the client's waiting callers: made when an
	 * attempt first found the lock held and the caller waits (one that gets the lock at
	 * its first attempt never waited), null before.
	 */
	WaitingAcquirers.@Nullable Waiting listedAsWaiting() {
		return this.listedAsWaiting;
	}

	void listAsWaiting(WaitingAcquirers.Waiting waiting) {
		this.listedAsWaiting = waiting;
	}

	/**
	 * Returns when a lease an attempt may have taken has surely run out, by
	 * {@link System#nanoTime()}: how long a background release of what the acquisition
	 * may have in Redis keeps trying.
	 */
	long leaseEndNanos() {
		return System.nanoTime() + Duration.ofMillis(this.leaseMillis).toNanos();
	}

}
