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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A release retried in the background keeps what is left of the hold's minimum hold as of
 * each attempt's send, for an exclusive lock and a shared one, and hands the lock on at
 * once when the minimum hold has passed; each goes over the connection it is given.
 */
class PendingReleasesTests {

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", false, 1024);

	private static final long LEASE = 30_000;

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final RedisLockCommands commands = new RedisLockCommands(this.redis, KEYSPACE, new RedisReachability(),
			2_000, ReplicaAcknowledgement.NONE);

	private final PendingReleases pending = new PendingReleases(this.commands);

	@AfterEach
	void close() {
		this.pending.close();
	}

	@Test
	void retriedReleaseKeepsWhatIsLeftOfTheMinimumHold() throws Exception {
		String key = TestRedis.uniqueKey("pending-keep");
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, false).granted()).isTrue();
		MinimumHold grantedASecondAgo = MinimumHold.from(System.nanoTime() - TimeUnit.SECONDS.toNanos(1),
				Duration.ofSeconds(3));
		this.pending.release(key, "holder", grantedASecondAgo, bound()).get(5, TimeUnit.SECONDS);
		assertThat(this.redis.opsForValue().get(key)).as("kept under a value no renewal matches")
			.isEqualTo("released:holder");
		assertThat(this.redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(1_500L, 2_000L);
	}

	@Test
	void retriedReleaseOfASharedHoldKeepsWhatIsLeftOfTheMinimumHold() throws Exception {
		String key = TestRedis.uniqueKey("pending-keep-shared");
		assertThat(this.commands.acquire(key, "r.reader", LEASE, null, 0, 1, false).granted()).isTrue();
		MinimumHold grantedASecondAgo = MinimumHold.from(System.nanoTime() - TimeUnit.SECONDS.toNanos(1),
				Duration.ofSeconds(3));
		this.pending.release(key, "r.reader", grantedASecondAgo, bound()).get(5, TimeUnit.SECONDS);
		assertThat(this.redis.opsForZSet().rangeWithScores(key, 0, -1)).singleElement()
			.satisfies((member) -> assertThat(member.getValue()).isEqualTo("released:r.reader"));
		assertThat(this.commands.acquire(key, "w.writer", LEASE, null, 0, 1, false).granted())
			.as("a writer, while the reader's minimum hold lasts")
			.isFalse();
	}

	@Test
	void retriedReleaseAfterTheMinimumHoldReleasesAtOnce() throws Exception {
		String key = TestRedis.uniqueKey("pending-passed");
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, false).granted()).isTrue();
		MinimumHold passed = MinimumHold.from(System.nanoTime() - TimeUnit.SECONDS.toNanos(5), Duration.ofSeconds(3));
		this.pending.release(key, "holder", passed, bound()).get(5, TimeUnit.SECONDS);
		assertThat(this.redis.hasKey(key)).isFalse();
	}

	@Test
	void eachAttemptSendsWhatIsLeftAsOfItsOwnSend() {
		List<Long> sent = new CopyOnWriteArrayList<>();
		AtomicInteger attempts = new AtomicInteger();
		PendingReleases failingTwice = this.pending.on((key, token, keepMillis) -> {
			sent.add(keepMillis);
			if (attempts.incrementAndGet() <= 2) {
				throw new IllegalStateException("not answered");
			}
			return CompletableFuture.completedFuture(null);
		});
		failingTwice.release("lock:k", "holder", MinimumHold.from(System.nanoTime(), Duration.ofSeconds(10)), bound());
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() == 3);
		assertThat(sent.get(0)).isBetween(9_900L, 10_000L);
		assertThat(sent.get(1)).as("after a pause of at least 50 ms").isLessThanOrEqualTo(sent.get(0) - 50);
		assertThat(sent.get(2)).as("after a pause of at least 100 ms").isLessThanOrEqualTo(sent.get(1) - 100);
	}

	@Test
	void anAnswerStillAwaitedHoldsUpNoOtherRelease() throws Exception {
		CompletableFuture<Void> notYetAnswered = new CompletableFuture<>();
		List<String> sent = new CopyOnWriteArrayList<>();
		PendingReleases stalled = this.pending.on((key, token, keepMillis) -> {
			sent.add(key);
			return notYetAnswered;
		});
		stalled.release("lock:stalled", "waiter", bound());
		String key = TestRedis.uniqueKey("pending-not-held-up");
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, false).granted()).isTrue();
		this.pending.release(key, "holder", bound()).get(5, TimeUnit.SECONDS);
		assertThat(sent).containsExactly("lock:stalled");
		assertThat(this.redis.hasKey(key)).isFalse();
		notYetAnswered.completeExceptionally(new IllegalStateException("not answered"));
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() >= 2);
	}

	@Test
	void releaseWithoutAMinimumHoldSendsNone() {
		List<Long> sent = new CopyOnWriteArrayList<>();
		this.pending.on((key, token, keepMillis) -> {
			sent.add(keepMillis);
			return CompletableFuture.completedFuture(null);
		}).release("lock:k", "waiter", bound());
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() == 1);
		assertThat(sent).containsExactly(0L);
	}

	private static long bound() {
		return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEASE);
	}

}
