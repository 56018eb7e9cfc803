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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Every hold has a local deadline: the send time of the last acquire or renewal that
 * Redis confirmed, plus the lease, minus a drift margin. At the deadline the holder knows
 * its lease is lost, before Redis can have expired the key, whether or not a renewal has
 * failed, and however long a stalled command would block.
 */
class LeaseDeadlineTests {

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private final RecordingLockListener listener = new RecordingLockListener();

	private LockFixture fixture;

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void fixedLeaseIsLostLocallyBeforeRedisExpiresTheKey() {
		this.fixture = LockFixture.start(REDIS.server(), Duration.ofSeconds(30), this.listener);
		String key = TestRedis.uniqueKey("fixed");
		long sent = System.nanoTime();
		LockHandle handle = this.fixture.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(2)));
		assertThat(handle.isLeaseLost()).isFalse();
		await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(1)).until(handle::isLeaseLost);
		long lostAfter = System.nanoTime() - sent;
		Long remaining = this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS);
		assertThat(Duration.ofNanos(lostAfter)).as("lost no later than the lease after the send")
			.isLessThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(remaining).as("Redis still keeps the key: the holder knew first").isPositive();
		assertThatExceptionOfType(LockLeaseLostException.class).as("the release reports the loss")
			.isThrownBy(handle::release);
		assertThat(this.listener.lost).extracting(LockHandle::key).containsExactly(key);
	}

	@Test
	void grantWhoseReplyCameAfterItsLeaseIsCheckedAgainInRedis() {
		this.fixture = LockFixture.start(REDIS.server(), Duration.ofSeconds(30), this.listener);
		String key = TestRedis.uniqueKey("late-grant");
		// Redis holds the acquire for 600ms: its reply comes after the 300ms lease it
		// grants may
		// have run out (as when the caller is paused while the reply is on its way).
		OwnRedisServer.pauseClients(this.fixture.redis, 600, "WRITE");
		LockHandle handle = this.fixture.client.lock(key,
				new LockOptions(Duration.ofSeconds(5), Duration.ofMillis(300)));
		assertThat(handle.isLeaseLost()).as("never handed out already lost").isFalse();
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("granted again with a fresh lease")
			.isPositive();
		handle.release();
	}

	@Test
	void renewedLeaseIsLostLocallyWhileRedisStopsAnswering() {
		Duration lease = Duration.ofMillis(900);
		this.fixture = LockFixture.start(REDIS.server(), lease, this.listener);
		String key = TestRedis.uniqueKey("stall");
		RedisLockHandle handle = (RedisLockHandle) this.fixture.client.lock(key, LockOptions.renewing(Duration.ZERO));
		await().atMost(Duration.ofSeconds(3)).until(() -> this.listener.renewedLocks() > 0);
		// Redis holds every command for 3s: the renewals, with a 2s command timeout, get
		// no answer.
		OwnRedisServer.pauseClients(this.fixture.redis, 3000, "ALL");
		long paused = System.nanoTime();
		await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(1)).until(handle::isLeaseLost);
		long lostAt = System.nanoTime();
		assertThat(Duration.ofNanos(lostAt - handle.confirmedSendNanos()))
			.as("lost within the lease of the last confirmed send")
			.isLessThanOrEqualTo(lease);
		assertThat(Duration.ofNanos(lostAt - paused)).as("long before the command timeout ends")
			.isLessThan(Duration.ofSeconds(2));
		await().atMost(Duration.ofSeconds(1))
			.until(() -> this.listener.lost.stream().anyMatch((lost) -> lost.key().equals(key)));
		assertThat(handle.mayPassLocally(this.fixture.client.commands().reachability())).isFalse();
		OwnRedisServer.awaitAnswers(this.fixture.redis);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
	}

}
