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
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockUnavailableException;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.lease.RenewalListener;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RenewalReply;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.support.LeaseExtensionRules;

/**
 * Extends the fixed lease of a hold at its holder's request
 * ({@link dev.distlock.LockHandle#extend}, and the same on the reactive handle), with the
 * owner-checked write a renewal sends ({@link RedisLockCommands#renew}) and the same
 * rules for what its reply means: the local deadline moves later only on a confirmed
 * reply, counted from the send time of the extension minus the drift margin; where
 * replicas must acknowledge grants, only an extension they acknowledged moves it later; a
 * key found gone or held by another owner reports the lease lost as a renewal does. Since
 * the extension sets the lease to the given time from now, the deadline may move earlier:
 * at once when it is sent, since Redis may run it before its answer comes, or after a
 * hand-over's confirmation that the renewer sends beside it; and it stays no later than
 * the extension's if no answer comes ({@link RedisLockHandle#extensionSending}). The
 * hold's deadline watch is rescheduled whenever the deadline moved.
 */
final class LeaseExtension {

	private final RedisLockCommands commands;

	private final LeaseRenewer<RedisLockHandle> renewer;

	private final RenewalListener<RedisLockHandle> reports;

	LeaseExtension(RedisLockCommands commands, LeaseRenewer<RedisLockHandle> renewer,
			RenewalListener<RedisLockHandle> reports) {
		this.commands = commands;
		this.renewer = renewer;
		this.reports = reports;
	}

	/**
	 * Extends the hold's lease to the given time from now, on the calling thread.
	 * @param released whether the holder's handle was released
	 */
	void extend(RedisLockHandle hold, Duration leaseTime, boolean released) {
		RuntimeException refusal = refusal(hold, leaseTime, released);
		if (refusal != null) {
			throw refusal;
		}
		long sent = sending(hold, leaseTime);
		RenewalReply reply;
		try {
			reply = this.commands.renew(List.of(hold.key()), List.of(hold.token()), leaseTime.toMillis());
		}
		catch (RuntimeException ex) {
			hold.extensionUnanswered(sent, leaseTime);
			throw (ex instanceof DataAccessException dataAccess) ? unavailable(hold, dataAccess) : ex;
		}
		applyReply(hold, sent, leaseTime, reply);
	}

	/**
	 * Records that an extension is about to be sent
	 * ({@link RedisLockHandle#extensionSending}): if that moved the hold's deadline
	 * earlier, its watch is moved there too.
	 * @return the send time, by {@link System#nanoTime()}
	 */
	long sending(RedisLockHandle hold, Duration leaseTime) {
		long deadline = hold.validUntilNanos();
		long sent = hold.extensionSending(leaseTime);
		if (hold.validUntilNanos() != deadline && !hold.hasEnded()) {
			this.renewer.watchDeadline(hold);
		}
		return sent;
	}

	/**
	 * Returns why the hold cannot be extended, checked before anything is sent
	 * ({@link LeaseExtensionRules}); null if it may be.
	 */
	@Nullable RuntimeException refusal(RedisLockHandle hold, Duration leaseTime, boolean released) {
		return LeaseExtensionRules.refusal(hold, leaseTime, released, hold.heldFor());
	}

	/**
	 * Applies Redis's reply to an extension sent at the given time: moves the hold's
	 * deadline, or reports why it did not.
	 * @throws LockLeaseLostException if the key no longer held the hold's token, or the
	 * lease ran out by the local count before the reply came
	 * @throws ReplicaAcknowledgementException if fewer replicas acknowledged the
	 * extension than must
	 */
	void applyReply(RedisLockHandle hold, long sent, Duration leaseTime, RenewalReply reply) {
		if (!reply.renewed()[0] || !reply.acknowledged()) {
			// Redis may have run it: the deadline stays no later than its own.
			hold.extensionUnanswered(sent, leaseTime);
		}
		if (!reply.renewed()[0]) {
			this.reports.tokenLost(hold, "its key was gone or held by another owner when extending its lease");
			throw lost(hold);
		}
		if (!reply.acknowledged()) {
			ReplicaAcknowledgement required = this.commands.acknowledgement();
			throw ReplicaAcknowledgementException.extension(hold.key(), hold.name(), reply.acknowledgedReplicas(),
					required.replicas(), required.timeout());
		}
		if (!hold.extended(sent, leaseTime)) {
			throw lost(hold);
		}
		if (!hold.hasEnded()) {
			// The deadline may have moved earlier than the watch's task.
			this.renewer.watchDeadline(hold);
		}
	}

	/**
	 * Returns the failure of an extension that Redis did not answer, or refused for a
	 * misconfiguration (a missing permission, wrong credentials).
	 */
	RuntimeException unavailable(RedisLockHandle hold, DataAccessException cause) {
		LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(hold.key(),
				LockUnavailableException.EXTEND, cause);
		return (misconfigured != null) ? misconfigured
				: this.commands.unavailable(hold.key(), hold.name(), LockUnavailableException.EXTEND, cause);
	}

	private static LockLeaseLostException lost(RedisLockHandle hold) {
		return LeaseExtensionRules.lost(hold, hold.heldFor());
	}

}
