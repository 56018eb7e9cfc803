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
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.redis.protocol.KeyInspection.Holder;
import dev.distlock.testing.SharedLockState;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code inspect.lua} through {@link LockMonitoringCommands#inspect}: an exclusive key
 * answers as before, and a read-write lock or a semaphore, written as the data model of
 * shared locks fixes it, answers with every holder whose lease has not ended (its kind,
 * its lease, and which of the given tokens it is, never the token), the permits and the
 * waiters with a valid place.
 */
class InspectScriptTests {

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", false, 1024);

	private static final long LEASE = 30_000;

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final RedisLockCommands commands = new RedisLockCommands(this.redis, KEYSPACE, new RedisReachability(),
			2_000, ReplicaAcknowledgement.NONE);

	@Test
	void threeReadersOfTwoClientsAreListedWithTheirLeasesAndTwoAsTheAskingClients() {
		String key = TestRedis.uniqueKey("readers");
		SharedLockState state = new SharedLockState(this.redis, key).holder("r.aa01", LEASE)
			.holder("r.bb02", LEASE - 10_000)
			.holder("r.cc03", LEASE - 20_000);
		try {
			KeyInspection inspection = this.commands.monitoring().inspect(key, List.of("r.cc03", "r.aa01"));
			assertThat(inspection.exists()).isTrue();
			assertThat(inspection.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(LEASE));
			assertThat(inspection.shared()).isNotNull();
			assertThat(inspection.shared().permits()).isZero();
			assertThat(inspection.shared().waiters()).isZero();
			assertThat(inspection.shared().holders()).hasSize(3)
				.allSatisfy((holder) -> assertThat(holder.kind()).isEqualTo(Holder.READER))
				.extracting(Holder::tokenIndex)
				.containsExactly(0, -1, 1);
			assertThat(inspection.shared().holders()).extracting(Holder::leaseRemaining)
				.allSatisfy((lease) -> assertThat(lease).isPositive().isLessThanOrEqualTo(Duration.ofMillis(LEASE)))
				.isSorted();
			assertThat(inspection.holderIndex()).as("the first holder that is one of the tokens").isZero();
		}
		finally {
			state.delete();
		}
	}

	@Test
	void semaphoreShowsItsPermitsHoldersAndValidWaiters() {
		String key = TestRedis.uniqueKey("permits");
		String waiters = KEYSPACE.waitersKey(key);
		SharedLockState state = new SharedLockState(this.redis, key).holder("s5.aa01", LEASE)
			.holder("s5.bb02", LEASE)
			.waiter(waiters, "s5.cc03", 3_000)
			.waiter(waiters, "s5.dd04", -1_000);
		try {
			KeyInspection inspection = this.commands.monitoring().inspect(key, List.of());
			assertThat(inspection.shared()).isNotNull();
			assertThat(inspection.shared().permits()).isEqualTo(5);
			assertThat(inspection.shared().waiters()).as("the waiter whose place ran out is not counted").isOne();
			assertThat(inspection.shared().holders()).hasSize(2)
				.allSatisfy((holder) -> assertThat(holder.kind()).isEqualTo(Holder.PERMIT))
				.allSatisfy((holder) -> assertThat(holder.tokenIndex()).isEqualTo(-1));
			assertThat(inspection.holderIndex()).isEqualTo(-1);
		}
		finally {
			state.delete(waiters);
		}
	}

	@Test
	void writerIsListedAsWriterAndEndedLeasesAreLeftOut() {
		String key = TestRedis.uniqueKey("writer");
		SharedLockState state = new SharedLockState(this.redis, key).holder("w.aa01", LEASE).holder("r.bb02", -5_000);
		try {
			KeyInspection inspection = this.commands.monitoring().inspect(key, List.of("r.bb02"));
			assertThat(inspection.shared()).isNotNull();
			assertThat(inspection.shared().holders()).singleElement().satisfies((holder) -> {
				assertThat(holder.kind()).isEqualTo(Holder.WRITER);
				assertThat(holder.tokenIndex()).isEqualTo(-1);
			});
			assertThat(inspection.holderIndex()).as("a reader whose lease ended holds nothing").isEqualTo(-1);
		}
		finally {
			state.delete();
		}
	}

	@Test
	void holdReleasedBeforeItsMinimumHoldEndsIsListedWithItsKindButAsNobodysToken() {
		String key = TestRedis.uniqueKey("kept");
		SharedLockState state = new SharedLockState(this.redis, key).holder("released:s3.aa01", LEASE)
			.holder("s3.bb02", LEASE);
		try {
			KeyInspection inspection = this.commands.monitoring().inspect(key, List.of("s3.aa01"));
			assertThat(inspection.shared()).isNotNull();
			assertThat(inspection.shared().permits()).isEqualTo(3);
			assertThat(inspection.shared().holders()).hasSize(2)
				.allSatisfy((holder) -> assertThat(holder.kind()).isEqualTo(Holder.PERMIT))
				.allSatisfy((holder) -> assertThat(holder.tokenIndex()).isEqualTo(-1));
		}
		finally {
			state.delete();
		}
	}

	@Test
	void exclusiveKeyAnswersWithItsTimeToLiveAndTheHoldingTokenAsBefore() {
		String key = TestRedis.uniqueKey("exclusive");
		assertThat(this.commands.monitoring().inspect(key, List.of("mine"))).isEqualTo(new KeyInspection(-2, -1, null));
		this.redis.opsForValue().set(key, "mine", Duration.ofMillis(LEASE));
		try {
			KeyInspection inspection = this.commands.monitoring().inspect(key, List.of("other", "mine"));
			assertThat(inspection.holderIndex()).isOne();
			assertThat(inspection.shared()).isNull();
			assertThat(inspection.remaining()).isPositive();
		}
		finally {
			this.redis.delete(key);
		}
	}

	@Test
	void replyOfAnExclusiveKeyIsParsedAsBeforeAndAMalformedOneIsRefused() {
		assertThat(KeyInspection.of(List.of(1200L, 2L))).isEqualTo(new KeyInspection(1200, 1, null));
		assertThat(KeyInspection.of(List.of(1200L, -1L, 0L, 0L, 1L, 900L, 0L, 9L, 800L, 1L)).shared().holders())
			.extracting(Holder::kind)
			.containsExactly(Holder.READER, Holder.UNKNOWN);
		for (List<Long> malformed : List.of(List.of(1L), List.of(1L, 1L, 1L), List.of(1L, -1L, 0L, 0L, 1L))) {
			assertThatIllegalStateException().isThrownBy(() -> KeyInspection.of(malformed))
				.withMessageContaining("inspect script");
		}
	}

}
