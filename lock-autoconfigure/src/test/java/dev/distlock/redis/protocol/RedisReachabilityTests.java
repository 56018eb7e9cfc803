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

package dev.distlock.redis.protocol;

import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When a lock's node is in doubt (issue 23, finding 3): its last lock command failed, its
 * commands stalled, or the client is reconnecting to it with no answer since; on a
 * cluster, per slot, whatever the other masters answer; an error that means
 * misconfiguration is an answer. Each command that Redis did not answer is told (on a
 * cluster, Lettuce then reads the topology again).
 */
class RedisReachabilityTests {

	/** In slot 15495 (the key {@code a}). */
	private static final String KEY_A = "{a}lock";

	/** In slot 3300 (the key {@code b}). */
	private static final String KEY_B = "{b}lock";

	@Test
	void onASingleServerAFailedCommandPutsEveryLockInDoubtUntilRedisAnswersAgain() {
		RedisReachability reachability = new RedisReachability();
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
		fail(reachability, KEY_A);
		assertThat(reachability.inDoubt(KEY_A)).isTrue();
		assertThat(reachability.inDoubt(KEY_B)).isTrue();
		answer(reachability, KEY_B);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void onAClusterAFailedCommandPutsOnlyItsSlotInDoubtAndAnotherMasterAnsweringChangesNothing() {
		RedisReachability reachability = new RedisReachability(true);
		fail(reachability, KEY_A);
		answer(reachability, KEY_B);
		assertThat(reachability.inDoubt(KEY_A)).isTrue();
		assertThat(reachability.inDoubt(KEY_B)).isFalse();
		answer(reachability, KEY_A);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void onAClusterStalledCommandsPutOnlyTheirSlotInDoubt() {
		RedisReachability reachability = new RedisReachability(true);
		long stalled = reachability.sending(KEY_A);
		answer(reachability, KEY_B);
		await().atMost(Duration.ofSeconds(2)).until(() -> reachability.inDoubt(KEY_A));
		answer(reachability, KEY_B);
		assertThat(reachability.inDoubt(KEY_B)).isFalse();
		reachability.done(KEY_A, stalled, true, true, null);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void onASingleServerReconnectingPutsEveryLockInDoubtUntilAnAnswerOrAConnectionIsBack() {
		RedisReachability reachability = new RedisReachability();
		reachability.reconnecting(null);
		assertThat(reachability.inDoubt(KEY_A)).isTrue();
		reachability.reconnected(null);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
		reachability.reconnecting(null);
		answer(reachability, KEY_B);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void onAClusterReconnectingPutsTheNodesSlotsInDoubtOnly() {
		RedisReachability reachability = new RedisReachability(true);
		BitSet nodeOfA = new BitSet();
		nodeOfA.set(10923, 16384);
		assertThat(nodeOfA.get(LockKeyspace.slot(KEY_A))).isTrue();
		assertThat(nodeOfA.get(LockKeyspace.slot(KEY_B))).isFalse();
		reachability.reconnecting(nodeOfA);
		answer(reachability, KEY_B);
		assertThat(reachability.inDoubt(KEY_A)).isTrue();
		assertThat(reachability.inDoubt(KEY_B)).isFalse();
		reachability.reconnected(nodeOfA);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
		reachability.reconnecting(nodeOfA);
		answer(reachability, KEY_A);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void onAClusterANodeNotKnownChangesNothing() {
		RedisReachability reachability = new RedisReachability(true);
		reachability.reconnecting(null);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void anErrorThatMeansMisconfigurationIsAnAnswer() {
		RedisReachability reachability = new RedisReachability(true);
		fail(reachability, KEY_A);
		reachability.done(KEY_A, reachability.sending(KEY_A), true, false, "grant the permission");
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
		assertThat(reachability.misconfiguration()).isEqualTo("grant the permission");
	}

	@Test
	void anInterruptedCallerSaysNothingAboutRedis() {
		RedisReachability reachability = new RedisReachability(true);
		reachability.done(KEY_A, reachability.sending(KEY_A), false, true, null);
		assertThat(reachability.inDoubt(KEY_A)).isFalse();
	}

	@Test
	void aHoldPassesLocallyOnlyIfConfirmedAfterTheLastFailureAnywhere() {
		RedisReachability reachability = new RedisReachability(true);
		long confirmedBefore = reachability.sending(KEY_A);
		reachability.done(KEY_A, confirmedBefore, true, true, null);
		fail(reachability, KEY_B);
		answer(reachability, KEY_B);
		assertThat(reachability.allowsLocalPass(confirmedBefore)).isFalse();
		long confirmedAfter = reachability.sending(KEY_A);
		reachability.done(KEY_A, confirmedAfter, true, true, null);
		assertThat(reachability.allowsLocalPass(confirmedAfter)).isTrue();
	}

	@Test
	void anAnswerIsEvidenceFromTheTimeItsCommandWasSentAndOnAClusterOnlyForItsSlot() {
		RedisReachability reachability = new RedisReachability(true);
		long early = reachability.sending(KEY_A);
		long late = reachability.sending(KEY_A);
		reachability.done(KEY_A, late, true, true, null);
		// The answer to the earlier command, arriving last, does not move the evidence
		// back.
		reachability.done(KEY_A, early, true, true, null);
		assertThat(reachability.answeredSince(KEY_A, late)).isTrue();
		assertThat(reachability.answeredSince(KEY_A, late + 1)).isFalse();
		long failedLater = reachability.sending(KEY_A);
		reachability.done(KEY_A, failedLater, false, false, null);
		assertThat(reachability.answeredSince(KEY_A, failedLater)).isFalse();
		answer(reachability, KEY_B);
		assertThat(reachability.answeredSince(KEY_A, failedLater)).isFalse();
	}

	@Test
	void onlyACommandThatRedisDidNotAnswerIsTold() {
		AtomicInteger unanswered = new AtomicInteger();
		RedisReachability reachability = new RedisReachability(true, unanswered::incrementAndGet);
		answer(reachability, KEY_A);
		reachability.done(KEY_A, reachability.sending(KEY_A), true, false, "grant the user EVALSHA");
		reachability.done(KEY_A, reachability.sending(KEY_A), false, true, null);
		assertThat(unanswered).as("answered, misconfigured, interrupted caller").hasValue(0);
		fail(reachability, KEY_A);
		fail(reachability, KEY_B);
		assertThat(unanswered).hasValue(2);
	}

	private static void fail(RedisReachability reachability, String key) {
		reachability.done(key, reachability.sending(key), false, false, null);
	}

	private static void answer(RedisReachability reachability, String key) {
		reachability.done(key, reachability.sending(key), true, true, null);
	}

}
