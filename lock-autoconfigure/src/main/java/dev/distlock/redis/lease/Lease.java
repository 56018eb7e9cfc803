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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongUnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * The validity of one hold, by this process's own count, and whether it was lost. Redis
 * cannot have started a lease before the request that acquired or renewed it was sent, so
 * the hold is valid until that send time plus the time Redis keeps the lock, minus a
 * drift margin for clocks that run at different rates ({@link #DRIFT_FACTOR} of it plus
 * {@link #DRIFT_MILLIS}). Past that deadline the lease counts as lost, whether or not a
 * renewal has failed yet; once lost, it stays lost. The holds that a lock passes through
 * within the client ({@link #passedOn()}) keep its owner token, so they share one
 * validity: Redis confirming the token for any of them confirms it for all; each is
 * marked lost on its own.
 */
public final class Lease {

	/** The share of a lease taken off its local validity, for clock drift. */
	public static final double DRIFT_FACTOR = 0.01;

	/** The time taken off every local validity, for clock drift, in ms. */
	public static final long DRIFT_MILLIS = 2;

	private final AtomicBoolean lost = new AtomicBoolean();

	private final List<Runnable> onLost = new CopyOnWriteArrayList<>();

	private final Validity validity;

	private Lease(Validity validity) {
		this.validity = validity;
	}

	/**
	 * Returns the validity of a new hold.
	 * @param sentNanos when the request that granted the lock was sent
	 * @param validFor how long Redis keeps the lock from that request: the lease (a
	 * hand-over's claim window is {@link #claimed})
	 * @return the validity
	 */
	public static Lease granted(long sentNanos, Duration validFor) {
		return new Lease(new Validity(sentNanos, validUntil(sentNanos, validFor), false));
	}

	/**
	 * Returns the validity of a hold handed over through the lock's queue, which Redis
	 * keeps for the claim window only until the holder confirms it
	 * ({@link #isClaimOnly}).
	 * @param sentNanos when the request that queued the holder was sent
	 * @param claimWindow how long Redis keeps the lock from the hand-over, and so at
	 * least from that request
	 * @return the validity
	 */
	public static Lease claimed(long sentNanos, Duration claimWindow) {
		return new Lease(new Validity(sentNanos, validUntil(sentNanos, claimWindow), true));
	}

	/**
	 * Returns the lease, not lost, of the hold that the lock passes to within the client:
	 * it keeps the owner token, so Redis keeps it as long as this one, and the two share
	 * their validity from then on (a renewal of either, even one answered after this hold
	 * ended, extends both).
	 * @return the lease of the next hold
	 */
	public Lease passedOn() {
		return new Lease(this.validity);
	}

	/**
	 * Returns until when a hold is valid by the local count: the send time plus its
	 * validity, minus the drift margin.
	 */
	public static long validUntil(long sentNanos, Duration validFor) {
		long nanos = validFor.toNanos();
		long drift = (long) (nanos * DRIFT_FACTOR) + DRIFT_MILLIS * 1_000_000;
		return sentNanos + nanos - drift;
	}

	/**
	 * When the last acquire or renewal that Redis confirmed was sent, by
	 * {@link System#nanoTime()}.
	 */
	public long confirmedSendNanos() {
		return this.validity.confirmedSendNanos;
	}

	/**
	 * Whether Redis keeps the hold for its claim window only: it was handed over through
	 * the lock's queue ({@link #claimed}), and neither confirmed nor extended since.
	 */
	public boolean isClaimOnly() {
		return this.validity.claimOnly;
	}

	/** Until when the hold is valid by the local count, by {@link System#nanoTime()}. */
	public long validUntilNanos() {
		return this.validity.validUntilNanos;
	}

	/** Returns how long the hold is still valid by the local count, zero once past. */
	public Duration remaining() {
		long remaining = this.validity.validUntilNanos - System.nanoTime();
		return (remaining > 0) ? Duration.ofNanos(remaining) : Duration.ZERO;
	}

	/** Whether the local validity has run out: Redis may have expired the lock. */
	public boolean isPastDeadline() {
		return System.nanoTime() - this.validity.validUntilNanos >= 0;
	}

	/** Whether the lease was marked lost, or its local validity has run out. */
	public boolean isLost() {
		return this.lost.get() || isPastDeadline();
	}

	/** Whether the lease was marked lost (not merely past its local deadline). */
	public boolean isMarkedLost() {
		return this.lost.get();
	}

	/**
	 * Marks the lease lost, and runs the actions waiting for it; returns true only the
	 * first time.
	 */
	public boolean markLost() {
		if (!this.lost.compareAndSet(false, true)) {
			return false;
		}
		this.onLost.forEach(this::runOnce);
		return true;
	}

	/**
	 * Runs the action once when the lease is marked lost, at once if it already is (not
	 * merely past its local deadline: the hold's deadline watch marks it then).
	 */
	public void onLost(Runnable action) {
		this.onLost.add(action);
		if (this.lost.get()) {
			runOnce(action);
		}
	}

	/** Forgets an action given to {@link #onLost}, if it has not run. */
	public void removeOnLost(Runnable action) {
		this.onLost.remove(action);
	}

	private void runOnce(Runnable action) {
		if (this.onLost.remove(action)) {
			action.run();
		}
	}

	/**
	 * Records that Redis confirmed the hold for the given time from a request sent then;
	 * a confirmation sent before the last one recorded (a confirmation or an extension:
	 * Redis applied that one after it, and the key's expiry is that one's), or one that
	 * comes after the lease was lost or its local validity ran out, changes nothing.
	 * <p>
	 * Nor does a confirmation count when an extension was sent or answered since it was
	 * sent (an extension sets the key's expiry, and may shorten it): two threads read
	 * their send times before they write their commands, and Redis may have run the
	 * extension after it. A hand-over confirmed so stays {@linkplain #isClaimOnly() on
	 * its claim}, for its confirmation to be sent again. One that counts ends the claim,
	 * and moves the deadline later if it can: no later than the deadline of an extension
	 * still unanswered or never answered ({@link #extensionSending}), counted, for this
	 * confirmation only, from its send if that is later (such an extension that Redis
	 * runs after this confirmation runs after its send).
	 */
	public void confirmed(long sentNanos, Duration validFor) {
		long until = validUntil(sentNanos, validFor);
		synchronized (this.validity) {
			if (isLost() || sentNanos - this.validity.confirmedSendNanos < 0) {
				return;
			}
			Extensions extensions = this.validity.extensions;
			if (extensions != null) {
				if (extensions.sentOrAnsweredSince(sentNanos)) {
					return;
				}
				until = extensions.boundForConfirmation(sentNanos, until);
			}
			if (until - this.validity.validUntilNanos > 0) {
				this.validity.confirmedSendNanos = sentNanos;
				this.validity.validUntilNanos = until;
			}
			this.validity.claimOnly = false;
		}
	}

	/**
	 * Records that an extension to the given time is about to be sent, and returns its
	 * send time. Until its answer is recorded ({@link #extended}), the deadline stays at
	 * or before the end of the new lease counted from that send time, whatever
	 * confirmation is answered meanwhile, since Redis may run the extension after it; if
	 * no answer comes ({@link #extensionUnanswered}), until Redis answers a later
	 * extension of the hold, counted from that extension's send. The deadline moves there
	 * at once if it is earlier: the extension may shorten the lease, and Redis may run it
	 * before its answer comes. The send times of one hold's extensions are distinct, for
	 * their answers to tell them apart: a clock that reads the same time twice gives the
	 * later one a nanosecond more (the drift margin is millions of times that).
	 * @param validFor the lease the extension sets
	 * @return the send time, by {@link System#nanoTime()}, for {@link #extended}
	 */
	public long extensionSending(Duration validFor) {
		synchronized (this.validity) {
			long now = System.nanoTime();
			if (this.validity.extensions == null) {
				this.validity.extensions = new Extensions(now);
			}
			long sentNanos = this.validity.extensions.sendTime(now);
			long until = this.validity.extensions.sending(sentNanos, validFor);
			if (until - this.validity.validUntilNanos < 0) {
				this.validity.validUntilNanos = until;
			}
			return sentNanos;
		}
	}

	/**
	 * Records that Redis set the hold's lease to the given time from a request sent then
	 * (an extension by its holder, announced by {@link #extensionSending}): unlike
	 * {@link #confirmed}, the deadline may move earlier as well as later, since Redis now
	 * keeps the lock for that time only, or longer if a confirmation raised it since
	 * (confirmations of a hold that can be extended, a hand-over's, only raise the key's
	 * expiry). It moves to the extension's own deadline, no later than that of any other
	 * extension Redis may have run after it: one unanswered or never answered (counted
	 * from this one's send if that is later), or one answered since this one was sent
	 * (two threads, or two connections, may write their extensions in the other order
	 * than their send times). An extension answered after one sent later moves it only
	 * earlier, if its own is (Redis may have run it last). One that comes after the lease
	 * was lost or its local validity ran out moves nothing.
	 * @param sentNanos when the extension was sent, as {@link #extensionSending} returned
	 * @param validFor the lease Redis set from then on
	 * @return false if the lease was lost or its local validity ran out before the answer
	 * came, else true
	 */
	public boolean extended(long sentNanos, Duration validFor) {
		long until = validUntil(sentNanos, validFor);
		synchronized (this.validity) {
			Extensions extensions = this.validity.extensions;
			boolean latest = (extensions == null) || extensions.answered(sentNanos, validFor);
			if (isLost()) {
				return false;
			}
			if (latest) {
				this.validity.validUntilNanos = (extensions != null) ? extensions.boundForExtension(sentNanos, until)
						: until;
				if (sentNanos - this.validity.confirmedSendNanos > 0) {
					this.validity.confirmedSendNanos = sentNanos;
				}
				this.validity.claimOnly = false;
			}
			else if (until - this.validity.validUntilNanos < 0) {
				this.validity.validUntilNanos = until;
			}
			return true;
		}
	}

	/**
	 * Records that an extension announced by {@link #extensionSending} got no answer, was
	 * cancelled, or got one that did not confirm it (its key was gone, too few replicas
	 * acknowledged it): Redis may have run it, or may still run it. The deadline stays no
	 * later than the extension's own until Redis answers a later extension of the hold,
	 * and from then on no later than the extension's lease counted from that extension's
	 * send; confirmations sent before now do not count.
	 * @param sentNanos when the extension was sent, as {@link #extensionSending} returned
	 * @param validFor the lease it would have set
	 */
	public void extensionUnanswered(long sentNanos, Duration validFor) {
		synchronized (this.validity) {
			if (this.validity.extensions != null) {
				this.validity.extensions.unanswered(sentNanos, validFor);
			}
		}
	}

	/**
	 * The extensions of a hold's lease, as far as the confirmations and extensions of the
	 * same owner token sent beside them need: those Redis may still run (sent and not
	 * answered, or never answered), those answered while another was in flight, when the
	 * last one was sent or answered, and the send time of the latest sent of those
	 * answered. Read and written only under the monitor of the validity that has it.
	 */
	private static final class Extensions {

		/** The extensions sent and not answered yet, or never answered. */
		private final List<Unanswered> unanswered = new ArrayList<>(1);

		/**
		 * The extensions answered, as long as one sent before their answer may still be
		 * answered: Redis may have run them after it.
		 */
		private final List<Answered> answeredBeside = new ArrayList<>(1);

		/** When an extension was last sent or answered, by {@link System#nanoTime()}. */
		private long lastSentOrAnsweredNanos;

		/** When the last extension was sent. */
		private long lastSentNanos;

		/** Whether Redis answered any extension. */
		private boolean anyAnswered;

		/** When the latest sent of the extensions Redis answered was sent. */
		private long latestAnsweredSentNanos;

		/**
		 * Starts recording the extensions of a hold, the first about to be sent now.
		 */
		Extensions(long nowNanos) {
			this.lastSentNanos = nowNanos - 1;
		}

		/**
		 * Returns the send time of an extension about to be sent at the given time: later
		 * than the last one's.
		 */
		long sendTime(long nowNanos) {
			return (nowNanos - this.lastSentNanos <= 0) ? this.lastSentNanos + 1 : nowNanos;
		}

		/** Records an extension about to be sent, and returns its deadline. */
		long sending(long sentNanos, Duration validFor) {
			this.lastSentNanos = sentNanos;
			Unanswered sent = new Unanswered(sentNanos, validFor);
			this.unanswered.add(sent);
			this.lastSentOrAnsweredNanos = sentNanos;
			return sent.deadline();
		}

		/**
		 * Records Redis's answer to an extension sent then.
		 * @return whether it is the latest sent of the extensions answered so far, and
		 * was awaited: one taken for lost first (a cancellation that raced with its
		 * answer) moves the deadline only earlier, since the answers that were not waited
		 * for it may have been forgotten
		 */
		boolean answered(long sentNanos, Duration validFor) {
			// One answered before every extension still awaited was sent ran before them
			// all: no answer to come needs it.
			this.answeredBeside.removeIf((answered) -> this.unanswered.stream()
				.noneMatch(
						(extension) -> !extension.answerLost && extension.sentNanos - answered.answeredNanos() <= 0));
			boolean awaited = this.unanswered.stream()
				.anyMatch((extension) -> !extension.answerLost && extension.is(sentNanos, validFor));
			this.unanswered.removeIf((extension) -> extension.is(sentNanos, validFor));
			long answeredNanos = System.nanoTime();
			this.lastSentOrAnsweredNanos = answeredNanos;
			answeredCommandSent(sentNanos);
			this.answeredBeside.add(new Answered(sentNanos, answeredNanos, validFor));
			boolean latest = awaited && (!this.anyAnswered || sentNanos - this.latestAnsweredSentNanos >= 0);
			if (latest) {
				this.anyAnswered = true;
				this.latestAnsweredSentNanos = sentNanos;
			}
			return latest;
		}

		/**
		 * Records that an extension will get no answer: it stays unanswered, unless
		 * another whose answer was lost bounds the deadline at least as much, now and
		 * after any later answer (counted from no later, for no longer).
		 */
		void unanswered(long sentNanos, Duration validFor) {
			this.lastSentOrAnsweredNanos = System.nanoTime();
			for (Unanswered extension : this.unanswered) {
				if (extension.is(sentNanos, validFor)) {
					extension.answerLost = true;
				}
			}
			List<Unanswered> kept = new ArrayList<>(this.unanswered.size());
			for (Unanswered extension : this.unanswered) {
				if (extension.answerLost) {
					if (kept.stream().anyMatch((other) -> other.answerLost && other.boundsAtLeastAsMuchAs(extension))) {
						continue;
					}
					kept.removeIf((other) -> other.answerLost && extension.boundsAtLeastAsMuchAs(other));
				}
				kept.add(extension);
			}
			this.unanswered.clear();
			this.unanswered.addAll(kept);
		}

		/**
		 * Records that Redis answered an extension of the hold sent then: an extension
		 * whose answer was lost, and that Redis runs after that one, runs after its send.
		 */
		void answeredCommandSent(long sentNanos) {
			for (Unanswered extension : this.unanswered) {
				if (extension.answerLost && sentNanos - extension.countedFromNanos > 0) {
					extension.countedFromNanos = sentNanos;
				}
			}
		}

		/**
		 * Whether an extension was sent or answered at or after the given time: Redis may
		 * have run it after a confirmation sent then.
		 */
		boolean sentOrAnsweredSince(long sentNanos) {
			return this.lastSentOrAnsweredNanos - sentNanos >= 0;
		}

		/**
		 * Returns how far a confirmation sent then may move the deadline: no later than
		 * the deadline of any extension Redis may still run, counted from the
		 * confirmation's send if that is later (if Redis runs it after the confirmation,
		 * it runs it after that send; if before, the confirmation's own lease counts).
		 */
		long boundForConfirmation(long sentNanos, long until) {
			return bound(until, (countedFrom) -> (sentNanos - countedFrom > 0) ? sentNanos : countedFrom);
		}

		/**
		 * Returns the deadline an extension sent then and answered may set: no later than
		 * that of any extension Redis may still run, or answered since that send (Redis
		 * may have run it after this one).
		 */
		long boundForExtension(long sentNanos, long until) {
			long bound = bound(until, LongUnaryOperator.identity());
			for (Answered answered : this.answeredBeside) {
				long deadline = validUntil(answered.sentNanos(), answered.validFor());
				if (answered.answeredNanos() - sentNanos >= 0 && deadline - bound < 0) {
					bound = deadline;
				}
			}
			return bound;
		}

		/**
		 * Returns the deadline, no later than that of any extension Redis may still run,
		 * each counted from where {@code countedFrom} moves its count.
		 */
		private long bound(long until, LongUnaryOperator countedFrom) {
			long bound = until;
			for (Unanswered extension : this.unanswered) {
				long deadline = validUntil(countedFrom.applyAsLong(extension.countedFromNanos), extension.validFor);
				if (deadline - bound < 0) {
					bound = deadline;
				}
			}
			return bound;
		}

	}

	/**
	 * An extension that Redis may still run: its lease, counted from its send, or, once
	 * its answer was lost, from the send of the last extension of the hold Redis answered
	 * since.
	 */
	private static final class Unanswered {

		private final long sentNanos;

		private final Duration validFor;

		private long countedFromNanos;

		private boolean answerLost;

		Unanswered(long sentNanos, Duration validFor) {
			this.sentNanos = sentNanos;
			this.validFor = validFor;
			this.countedFromNanos = sentNanos;
		}

		boolean is(long sentNanos, Duration validFor) {
			return this.sentNanos == sentNanos && this.validFor.equals(validFor);
		}

		/**
		 * Whether this one's deadline is no later than the other's, now and after any
		 * later answer moves both (each to the same send, if later).
		 */
		boolean boundsAtLeastAsMuchAs(Unanswered other) {
			return this.countedFromNanos - other.countedFromNanos <= 0 && this.validFor.compareTo(other.validFor) <= 0;
		}

		long deadline() {
			return validUntil(this.countedFromNanos, this.validFor);
		}

	}

	/**
	 * An extension Redis answered: when it was sent and answered, and the lease it set.
	 */
	private record Answered(long sentNanos, long answeredNanos, Duration validFor) {
	}

	/**
	 * What the leases of the holds of one owner token share: when Redis last confirmed
	 * the token, until when it is valid by the local count, and whether that is still a
	 * hand-over's claim window. Written only under its own monitor.
	 */
	private static final class Validity {

		private volatile long confirmedSendNanos;

		private volatile long validUntilNanos;

		private volatile boolean claimOnly;

		/** Its extensions, once one was sent: none for most holds. */
		private @Nullable Extensions extensions;

		Validity(long confirmedSendNanos, long validUntilNanos, boolean claimOnly) {
			this.confirmedSendNanos = confirmedSendNanos;
			this.validUntilNanos = validUntilNanos;
			this.claimOnly = claimOnly;
		}

	}

}
