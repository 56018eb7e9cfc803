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
