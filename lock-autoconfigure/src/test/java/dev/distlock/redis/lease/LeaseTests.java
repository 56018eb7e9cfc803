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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Lease}: the local validity follows the request Redis applied last, as
 * far as the send times tell, whichever answer the process handles last. Redis applies
 * the requests of one connection in the order they were sent; the threads that handle the
 * answers may run in another.
 */
class LeaseTests {

	private static final Duration CLAIM = Duration.ofSeconds(2);

	private static final Duration LEASE = Duration.ofSeconds(20);

	private static final Duration SHORT = Duration.ofSeconds(1);

	/**
	 * A hand-over's confirmation (to the 20 s lease) sent at 650 ms, then the holder's
	 * extension to 1 s sent at 700 ms: Redis applies both in that order and keeps the key
	 * for 1 s from the extension. The holder's thread handles the extension's answer
	 * first, the sender thread the confirmation's after it: the validity must stay the
	 * extension's, not 20 s from the confirmation.
	 */
	@Test
	void confirmationSentBeforeTheLastExtensionDoesNotMoveTheDeadlineBeyondIt() {
		long start = System.nanoTime();
		Lease lease = Lease.claimed(start, CLAIM);
		long confirmationSent = start + millis(650);
		long extensionSent = start + millis(700);
		assertThat(lease.extended(extensionSent, SHORT)).isTrue();
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(extensionSent, SHORT));
		assertThat(lease.confirmedSendNanos()).isEqualTo(extensionSent);
		assertThat(lease.isClaimOnly()).isFalse();
	}

	@Test
	void confirmationSentAfterTheLastExtensionMovesTheDeadline() {
		long start = System.nanoTime();
		Lease lease = Lease.claimed(start, CLAIM);
		long extensionSent = start + millis(700);
		long confirmationSent = start + millis(750);
		assertThat(lease.extended(extensionSent, SHORT)).isTrue();
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(confirmationSent, LEASE));
	}

	@Test
	void extensionHandledAfterAnEarlierConfirmationSetsTheDeadline() {
		long start = System.nanoTime();
		Lease lease = Lease.claimed(start, CLAIM);
		long confirmationSent = start + millis(650);
		long extensionSent = start + millis(700);
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.isClaimOnly()).isFalse();
		assertThat(lease.extended(extensionSent, SHORT)).isTrue();
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(extensionSent, SHORT));
	}

	/**
	 * The holder's extension to 1 s is sent, then a hand-over's confirmation to the 20 s
	 * lease, whose answer comes first: the extension's thread may have been held between
	 * reading its send time and writing its command, and Redis may run it last (then no
	 * earlier than the confirmation's send). The deadline moves no further than the
	 * extension's 1 s from the confirmation's send, and is the extension's own once its
	 * answer comes.
	 */
	@Test
	void confirmationAnsweredWhileAnExtensionIsUnansweredDoesNotMoveTheDeadlinePastIt() {
		Lease lease = Lease.claimed(System.nanoTime(), CLAIM);
		long extensionSent = lease.extensionSending(SHORT);
		long extensionDeadline = Lease.validUntil(extensionSent, SHORT);
		assertThat(lease.validUntilNanos()).as("no later than the extension's from its send on")
			.isEqualTo(extensionDeadline);
		long confirmationSent = System.nanoTime() + 1;
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(confirmationSent, SHORT));
		assertThat(lease.extended(extensionSent, SHORT)).isTrue();
		assertThat(lease.validUntilNanos()).isEqualTo(extensionDeadline);
		long confirmedLater = System.nanoTime() + 1;
		lease.confirmed(confirmedLater, LEASE);
		assertThat(lease.validUntilNanos()).as("a confirmation sent after the extension's answer")
			.isEqualTo(Lease.validUntil(confirmedLater, LEASE));
	}

	/**
	 * A confirmation sent while an extension was unanswered, whose answer comes after the
	 * extension's (it went over another connection): Redis may have run the extension
	 * after it.
	 */
	@Test
	void confirmationSentBeforeAnExtensionWasAnsweredDoesNotMoveTheDeadline() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		long extensionSent = lease.extensionSending(SHORT);
		long confirmationSent = System.nanoTime();
		assertThat(lease.extended(extensionSent, SHORT)).isTrue();
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(extensionSent, SHORT));
	}

	/**
	 * An extension whose answer never came (lost, or its reactive subscriber cancelled)
	 * may still run in Redis: a confirmation sent before that does not count, and one
	 * sent after it is bounded by the extension's lease counted from its own send (if
	 * Redis runs the extension after it, it runs it after that send).
	 */
	@Test
	void extensionWithoutAnswerBoundsTheDeadlineFromTheLastCommandAnswered() {
		Lease lease = Lease.claimed(System.nanoTime(), CLAIM);
		long extensionSent = lease.extensionSending(SHORT);
		long confirmationSentBefore = System.nanoTime();
		lease.extensionUnanswered(extensionSent, SHORT);
		lease.confirmed(confirmationSentBefore, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(extensionSent, SHORT));
		assertThat(lease.isClaimOnly()).as("the confirmation did not count").isTrue();
		long confirmationSentAfter = System.nanoTime() + 1;
		lease.confirmed(confirmationSentAfter, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(confirmationSentAfter, SHORT));
		assertThat(lease.isClaimOnly()).isFalse();
	}

	/**
	 * A confirmation counts a lost extension from its own send, for itself only: a later
	 * extension's answer still bounds the deadline by the lost one counted from where it
	 * was (Redis may run the lost one after that extension, on another connection).
	 */
	@Test
	void confirmationCountsALostExtensionFromItsSendForItselfOnly() {
		Lease lease = Lease.claimed(System.nanoTime(), CLAIM);
		Duration lost = Duration.ofSeconds(5);
		long lostSent = lease.extensionSending(lost);
		lease.extensionUnanswered(lostSent, lost);
		Duration longer = Duration.ofSeconds(60);
		long extensionSent = lease.extensionSending(longer);
		long confirmationSent = System.nanoTime() + 1;
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.extended(extensionSent, longer)).isTrue();
		assertThat(lease.validUntilNanos()).as("the lost extension's, counted from the longer extension's send")
			.isEqualTo(Lease.validUntil(extensionSent, lost));
	}

	/**
	 * Lost extensions that another lost one bounds as much are forgotten: of a thousand
	 * lost extensions to the lease, the first is kept; a shorter one sent later is kept
	 * beside it.
	 */
	@Test
	void lostExtensionsBoundedByAnotherAreForgotten() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		for (int i = 0; i < 1000; i++) {
			long sent = lease.extensionSending(LEASE);
			lease.extensionUnanswered(sent, LEASE);
		}
		long sent = lease.extensionSending(SHORT);
		lease.extensionUnanswered(sent, SHORT);
		long confirmationSent = System.nanoTime() + 1;
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(confirmationSent, SHORT));
		assertThat(lease).extracting("validity.extensions.unanswered").asList().hasSize(2);
	}

	/**
	 * A hand-over's confirmation (raise-only) is answered while a longer extension is
	 * unanswered, then the extension's answer comes: Redis ran the extension, and a
	 * confirmation only ever raised the key's expiry, so the deadline is the extension's.
	 */
	@Test
	void longerExtensionAnsweredAfterAConfirmationSentLaterSetsTheDeadline() {
		Lease lease = Lease.claimed(System.nanoTime(), CLAIM);
		Duration longer = Duration.ofSeconds(60);
		long extensionSent = lease.extensionSending(longer);
		long confirmationSent = System.nanoTime() + 1;
		lease.confirmed(confirmationSent, LEASE);
		assertThat(lease.validUntilNanos()).as("the confirmation's: the longer extension does not bound it")
			.isEqualTo(Lease.validUntil(confirmationSent, LEASE));
		assertThat(lease.extended(extensionSent, longer)).isTrue();
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(extensionSent, longer));
	}

	/**
	 * Two extensions in flight, to 1 s then to 20 s, answered the other way round: Redis
	 * may have run the first last, so the deadline is the first's.
	 */
	@Test
	void extensionAnsweredAfterALaterOneMovesTheDeadlineOnlyEarlier() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		long first = lease.extensionSending(SHORT);
		long second = lease.extensionSending(LEASE);
		assertThat(lease.extended(second, LEASE)).isTrue();
		assertThat(lease.validUntilNanos()).as("bounded by the first, still unanswered")
			.isEqualTo(Lease.validUntil(first, SHORT));
		assertThat(lease.extended(first, SHORT)).isTrue();
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(first, SHORT));
	}

	/**
	 * Two extensions in flight, to 1 s then to 20 s, answered in the order they were
	 * sent: the second was sent before the first was answered, so Redis may have run the
	 * first last (two connections, or the first's thread held between its send time and
	 * its write), and the deadline stays the first's. The build before moved it to the
	 * second's 20 s.
	 */
	@Test
	void extensionAnsweredAfterAnOverlappingOneAnsweredFirstMovesTheDeadlineNoLaterThanThatOne() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		long first = lease.extensionSending(SHORT);
		long second = lease.extensionSending(LEASE);
		assertThat(lease.extended(first, SHORT)).isTrue();
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(first, SHORT));
		assertThat(lease.extended(second, LEASE)).isTrue();
		assertThat(lease.validUntilNanos()).as("Redis may have run the first after the second")
			.isEqualTo(Lease.validUntil(first, SHORT));
	}

	/**
	 * An extension sent after another was answered ran after it: it sets the deadline,
	 * even once overlapping extensions were answered before it.
	 */
	@Test
	void extensionSentAfterAnotherWasAnsweredSetsTheDeadline() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		long first = lease.extensionSending(SHORT);
		long second = lease.extensionSending(LEASE);
		assertThat(lease.extended(first, SHORT)).isTrue();
		assertThat(lease.extended(second, LEASE)).isTrue();
		long third = lease.extensionSending(LEASE);
		assertThat(lease.extended(third, LEASE)).isTrue();
		assertThat(lease.validUntilNanos()).as("Redis ran both others before it")
			.isEqualTo(Lease.validUntil(third, LEASE));
		long fourth = lease.extensionSending(SHORT);
		assertThat(lease.extended(fourth, SHORT)).isTrue();
		assertThat(lease.validUntilNanos()).isEqualTo(Lease.validUntil(fourth, SHORT));
	}

	/**
	 * Two extensions in flight, to 1 s then to 20 s; the first is answered, the second
	 * taken for lost (cancelled) and then answered all the same: what was kept for it to
	 * be bounded by may have been forgotten meanwhile, so its answer moves the deadline
	 * only earlier. The build before moved it to the second's 20 s.
	 */
	@Test
	void extensionAnsweredAfterItWasTakenForLostMovesTheDeadlineOnlyEarlier() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		long first = lease.extensionSending(SHORT);
		long second = lease.extensionSending(LEASE);
		assertThat(lease.extended(first, SHORT)).isTrue();
		lease.extensionUnanswered(second, LEASE);
		assertThat(lease.extended(second, LEASE)).isTrue();
		assertThat(lease.validUntilNanos()).as("Redis may have run the first after the second")
			.isEqualTo(Lease.validUntil(first, SHORT));
	}

	/**
	 * The send times of one hold's extensions are distinct, however fast they follow one
	 * another: an answer is matched to its extension by its send time and lease.
	 */
	@Test
	void extensionsSentOneAfterAnotherHaveDistinctSendTimes() {
		Lease lease = Lease.granted(System.nanoTime(), LEASE);
		long previous = lease.extensionSending(LEASE);
		assertThat(lease.extended(previous, LEASE)).isTrue();
		for (int i = 0; i < 10_000; i++) {
			long sent = lease.extensionSending(LEASE);
			assertThat(sent - previous).as("after the one before").isPositive();
			assertThat(lease.extended(sent, LEASE)).isTrue();
			previous = sent;
		}
	}

	@Test
	void claimIsClaimOnlyUntilConfirmed() {
		long start = System.nanoTime();
		Lease lease = Lease.claimed(start, CLAIM);
		assertThat(lease.isClaimOnly()).isTrue();
		assertThat(lease.passedOn().isClaimOnly()).as("shared with the holds it passes to").isTrue();
		Lease passed = lease.passedOn();
		lease.confirmed(start + millis(10), LEASE);
		assertThat(passed.isClaimOnly()).isFalse();
		assertThat(passed.validUntilNanos()).isEqualTo(Lease.validUntil(start + millis(10), LEASE));
		assertThat(Lease.granted(start, LEASE).isClaimOnly()).isFalse();
	}

	private static long millis(long millis) {
		return TimeUnit.MILLISECONDS.toNanos(millis);
	}

}
