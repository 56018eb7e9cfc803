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

import org.springframework.dao.DataAccessException;

import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Sends the attempts of one acquisition to Redis, one round trip each, all with the same
 * owner token: asks the cohort of the client's threads how large a block of fencing
 * tokens to reserve, tells Redis whether an earlier attempt may have queued the caller,
 * and remembers when the last attempt was sent and the block it reserved, from which a
 * grant counts. An attempt whose outcome is unknown leaves the queue in the background. A
 * grant that fewer replicas acknowledged than must is released again at once, and the
 * attempt fails with a {@link ReplicaAcknowledgementException}.
 */
final class AttemptSender {

	private final AcquisitionServices services;

	private final QueueExit exit;

	private final String key;

	private final String token;

	private final long leaseMillis;

	private final LockOptions options;

	private long lastAttemptNanos;

	private int lastBlock;

	private boolean mayBeQueued;

	AttemptSender(AcquisitionServices services, QueueExit exit, String key, String token, long leaseMillis,
			LockOptions options) {
		this.services = services;
		this.exit = exit;
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
		this.options = options;
	}

	/**
	 * When the last attempt was sent, by {@link System#nanoTime()}.
	 */
	long lastAttemptNanos() {
		return this.lastAttemptNanos;
	}

	/**
	 * Returns what the last attempt was granted: the block it reserved, valid for the
	 * lease from its send.
	 */
	Grant granted(AcquireReply.Granted reply) {
		return new Grant(reply.fencingToken(), this.lastBlock, this.lastAttemptNanos,
				Duration.ofMillis(this.leaseMillis));
	}

	/**
	 * Makes one attempt.
	 * @param handOverChannel where to be told of a hand-over if the lock is held, or null
	 * to stay out of the lock's queue
	 * @return the reply, or null if the thread is interrupted
	 * @throws LockUnavailableException if the attempt fails, or too few replicas
	 * acknowledged its grant
	 * @throws LockMisconfigurationException if Redis refuses the attempt for a reason to
	 * fix
	 */
	@Nullable AcquireReply attempt(@Nullable String handOverChannel) {
		if (Thread.currentThread().isInterrupted()) {
			return null;
		}
		this.lastAttemptNanos = System.nanoTime();
		this.lastBlock = this.options.isShared() ? 1
				: this.services.cohort().tokensToReserve(this.key, this.options.isAutoRenewing());
		boolean queuedBefore = this.mayBeQueued;
		this.mayBeQueued |= handOverChannel != null;
		AcquireReply reply;
		try {
			reply = this.services.commands()
				.acquire(this.key, this.token, this.leaseMillis, handOverChannel,
						WaitTimings.QUEUE_ENTRY_TTL.toMillis(), this.lastBlock, queuedBefore);
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(this.key, "acquire", ex);
			if (misconfigured != null) {
				if (acknowledged()) {
					// WAIT may have failed after the script granted the lock.
					this.exit.inBackground();
				}
				throw misconfigured;
			}
			// The acquire may have been applied although its reply was lost: undo it once
			// Redis answers.
			this.exit.inBackground();
			if (Thread.currentThread().isInterrupted()) {
				return null;
			}
			throw this.services.commands().unavailable(this.key, this.options.name(), "acquire", ex);
		}
		catch (RuntimeException ex) {
			if (!acknowledged()) {
				throw ex;
			}
			this.exit.inBackground();
			throw this.services.commands().unavailable(this.key, this.options.name(), "acquire", ex);
		}
		if (reply instanceof AcquireReply.Granted granted) {
			checkAcknowledged(granted);
		}
		return reply;
	}

	private boolean acknowledged() {
		return this.services.commands().acknowledgement().isRequired();
	}

	/**
	 * Lets a grant go again, with the owner-checked release (which hands it to the next
	 * waiter), if fewer replicas acknowledged it than must.
	 */
	private void checkAcknowledged(AcquireReply.Granted granted) {
		ReplicaAcknowledgement required = this.services.commands().acknowledgement();
		if (!required.isRequired() || granted.acknowledgedReplicas() >= required.replicas()) {
			return;
		}
		try {
			this.services.commands().release(this.key, this.token, 0);
		}
		catch (DataAccessException ex) {
			this.exit.inBackground();
		}
		throw new ReplicaAcknowledgementException(this.key, this.options.name(), granted.acknowledgedReplicas(),
				required.replicas(), required.timeout());
	}

}
