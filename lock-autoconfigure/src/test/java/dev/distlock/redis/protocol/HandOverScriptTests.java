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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The queue and hand-over of the acquire and release scripts, command by command: what a
 * release does with the places of waiters that stopped trying, with a waiter whose
 * message is lost, and with a waiter that gives up after it was handed the lock.
 */
class HandOverScriptTests {

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", false, 1024);

	private static final long LEASE = 30_000;

	private static final long PLACE = 3_000;

	private static final String NOBODY_LISTENS = "test:distlock:released:nobody";

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private static final long CLAIM_WINDOW = 2_000;

	private final RedisLockCommands commands = new RedisLockCommands(this.redis, KEYSPACE, new RedisReachability(),
			CLAIM_WINDOW, ReplicaAcknowledgement.NONE);

	@Test
	void heldLockQueuesTheCallerAndReportsTheHoldersLease() {
		String key = TestRedis.uniqueKey("queue");
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, true).granted()).isTrue();
		AcquireReply.Held queued = (AcquireReply.Held) this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS,
				PLACE, 1, true);
		assertThat(queued.holderLeaseMillis()).as("holder's remaining lease").isBetween(LEASE - 5_000, LEASE);
		assertThat(queued.fenceCounter()).as("the fencing counter, for telling a void hand-over").isPositive();
		assertThat(this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1, true).granted())
			.as("renewed, not queued twice")
			.isFalse();
		assertThat(this.redis.opsForList().range(KEYSPACE.queueKey(key), 0, -1)).containsExactly("waiter");
		assertThat(this.commands.acquire(key, "bystander", LEASE, null, 0, 1, true).granted()).isFalse();
		assertThat(this.redis.opsForList().range(KEYSPACE.queueKey(key), 0, -1)).as("a caller that will not wait")
			.containsExactly("waiter");
		this.commands.leaveQueue(key, "waiter", 0);
		this.commands.release(key, "holder", 0);
		assertThat(this.redis.hasKey(key)).isFalse();
	}

	@Test
	void grantsReserveTheBlockOfFencingTokensTheyAskFor() {
		String key = TestRedis.uniqueKey("block");
		long first = ((AcquireReply.Granted) this.commands.acquire(key, "holder", LEASE, null, 0, 8, true))
			.fencingToken();
		assertThat(fenceAfter(() -> {
		})).as("the holder's block is reserved").isEqualTo(first + 7);
		this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 4, true);
		long handedOver = fenceAfter(() -> this.commands.release(key, "holder", 0)) - 4 + 1;
		assertThat(handedOver).as("the waiter's block starts after the holder's").isGreaterThan(first + 7);
		assertThat(this.commands.release(key, "waiter", 0)).isEqualTo(ReleaseOutcome.DELETED);
		long next = ((AcquireReply.Granted) this.commands.acquire(key, "next", LEASE, null, 0, 1, true)).fencingToken();
		assertThat(next).isGreaterThanOrEqualTo(handedOver + 4);
		this.commands.release(key, "next", 0);
	}

	@Test
	void releaseSetsTheLockToTheFirstWaiterWithANewFencingToken() {
		String key = TestRedis.uniqueKey("grant");
		long holderFence = ((AcquireReply.Granted) this.commands.acquire(key, "holder", LEASE, null, 0, 1, true))
			.fencingToken();
		this.commands.acquire(key, "first", 5_000, NOBODY_LISTENS, PLACE, 1, true);
		this.commands.acquire(key, "second", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		assertThat(this.commands.release(key, "holder", 0)).as("handed over").isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(this.redis.opsForValue().get(key)).as("the waiter's token, marked: the second still waits")
			.isEqualTo("first+queued");
		assertThat(this.redis.getExpire(key)).as("the claim window, until the waiter confirms").isBetween(1L, 2L);
		assertThat(this.redis.opsForList().range(KEYSPACE.queueKey(key), 0, -1)).containsExactly("second");
		assertThat(this.commands.release(key, "first", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(this.redis.opsForValue().get(key)).as("the last waiter's token, unmarked: nobody waits")
			.isEqualTo("second");
		assertThat(this.commands.release(key, "second", 0)).as("nobody left: deleted")
			.isEqualTo(ReleaseOutcome.DELETED);
		assertThat(this.redis.keys("*" + key + "*")).isEmpty();
		assertThat(holderFence).isPositive();
	}

	@Test
	void waiterWhoseMessageWasLostTakesTheLockWithItsNextAttempt() {
		String key = TestRedis.uniqueKey("lost-message");
		this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
		this.commands.acquire(key, "waiter", 2_000, NOBODY_LISTENS, PLACE, 1, true);
		long handedOver = fenceAfter(() -> this.commands.release(key, "holder", 0));
		long taken = ((AcquireReply.Granted) this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1,
				true))
			.fencingToken();
		assertThat(taken).as("a fencing token above the one of the lost message").isGreaterThan(handedOver);
		assertThat(this.redis.getExpire(key)).as("lease of the attempt").isGreaterThan(20L);
		assertThat(this.commands.release(key, "waiter", 0)).isEqualTo(ReleaseOutcome.DELETED);
	}

	@Test
	void waiterThatGivesUpAfterBeingHandedTheLockPassesItOn() {
		String key = TestRedis.uniqueKey("gives-up");
		this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
		this.commands.acquire(key, "leaving", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		this.commands.acquire(key, "staying", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		this.commands.release(key, "holder", 0);
		assertThat(this.commands.leaveQueue(key, "leaving", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(this.redis.opsForValue().get(key)).isEqualTo("staying");
		this.commands.release(key, "staying", 0);
	}

	@Test
	void placeOfAWaiterThatStoppedTryingLapsesAndIsSkipped() {
		String key = TestRedis.uniqueKey("lapsed");
		this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
		// Each attempt also sets the queue's expiry to its place's validity: the next
		// attempt comes well within 500 ms and keeps the queue, the stopped place in it.
		this.commands.acquire(key, "stopped", LEASE, NOBODY_LISTENS, 500, 1, true);
		long queuedAt = serverMillis();
		this.commands.acquire(key, "alive", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		assertThat(this.redis.opsForList().range(KEYSPACE.queueKey(key), 0, -1)).containsExactly("stopped", "alive");
		await().until(() -> serverMillis() > queuedAt + 500);
		assertThat(this.commands.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(this.redis.opsForValue().get(key)).as("skipped the lapsed place").isEqualTo("alive");
		assertThat(this.commands.release(key, "alive", 0)).isEqualTo(ReleaseOutcome.DELETED);
		assertThat(this.redis.keys("*" + key + "*")).isEmpty();
	}

	@Test
	void lapsedPlacesBeyondTheFirstTwoAreSkippedAndAWaiterBehindKeepsTheMark() {
		// The release reads the first two places at once; the third is read on its own.
		String key = TestRedis.uniqueKey("lapsed-three");
		this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
		queueLapsedPlaces(key, "stopped-1", "stopped-2");
		this.commands.acquire(key, "alive", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		this.commands.acquire(key, "behind", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		assertThat(this.redis.opsForList().range(KEYSPACE.queueKey(key), 0, -1)).containsExactly("stopped-1",
				"stopped-2", "alive", "behind");
		assertThat(this.commands.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(this.redis.opsForValue().get(key)).as("the third place's token, marked: one still waits")
			.isEqualTo("alive+queued");
		assertThat(this.redis.opsForList().range(KEYSPACE.queueKey(key), 0, -1)).containsExactly("behind");
		assertThat(this.redis.opsForHash().keys(KEYSPACE.waitersKey(key))).as("the lapsed entries, gone")
			.containsExactly("behind");
		assertThat(this.commands.release(key, "alive", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(this.redis.opsForValue().get(key)).isEqualTo("behind");
		assertThat(this.commands.release(key, "behind", 0)).isEqualTo(ReleaseOutcome.DELETED);
		assertThat(this.redis.keys("*" + key + "*")).isEmpty();
	}

	@Test
	void releaseWithOnlyLapsedPlacesDeletesTheLockAndThePlaces() {
		String key = TestRedis.uniqueKey("lapsed-only");
		this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
		queueLapsedPlaces(key, "stopped-1", "stopped-2", "stopped-3");
		assertThat(this.commands.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.DELETED);
		assertThat(this.redis.keys("*" + key + "*")).as("the lock, the lapsed places and their entries, gone")
			.isEmpty();
	}

	@Test
	void minimumHoldKeepsTheLockFromTheQueueUntilItExpires() {
		String key = TestRedis.uniqueKey("min-hold");
		this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
		this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1, true);
		assertThat(this.commands.release(key, "holder", 10_000)).isEqualTo(ReleaseOutcome.KEPT_FOR_MIN_HOLD);
		assertThat(this.redis.opsForValue().get(key)).as("kept, under a value no renewal of the token matches")
			.isEqualTo("released:holder");
		assertThat(this.redis.getExpire(key)).isBetween(1L, 10L);
		this.redis.delete(key);
		assertThat(this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1, true).granted())
			.as("free: taken by the waiter")
			.isTrue();
		assertThat(this.redis.hasKey(KEYSPACE.queueKey(key))).as("it left the queue").isFalse();
		this.commands.release(key, "waiter", 0);
	}

	@Test
	void releaseHandsOverToAWaiterQueuedByAnOlderAcquireScript() throws Exception {
		String key = TestRedis.uniqueKey("old-entry");
		String channel = "test:distlock:released:" + key;
		BlockingQueue<String> messages = new LinkedBlockingQueue<>();
		RedisConnection subscriber = this.redis.getRequiredConnectionFactory().getConnection();
		try {
			subscriber.subscribe((message, pattern) -> messages.add(new String(message.getBody(), UTF_8)),
					channel.getBytes(UTF_8));
			await().atMost(Duration.ofSeconds(10)).until(() -> subscribersOf(channel) == 1);
			this.commands.acquire(key, "holder", LEASE, null, 0, 1, true);
			// An entry as acquire.lua wrote it before sharded channels, during a rolling
			// upgrade: <valid until> <claim window> <block> <channel>, no publish
			// command.
			this.redis.opsForHash()
				.put(KEYSPACE.waitersKey(key), "old", (serverMillis() + PLACE) + " " + CLAIM_WINDOW + " 3 " + channel);
			this.redis.opsForList().rightPush(KEYSPACE.queueKey(key), "old");
			assertThat(this.commands.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
			assertThat(this.redis.opsForValue().get(key)).isEqualTo("old");
			assertThat(messages.poll(10, TimeUnit.SECONDS)).as("published on the old entry's channel")
				.startsWith("old:")
				.endsWith(":3");
		}
		finally {
			subscriber.close();
		}
		assertThat(this.commands.release(key, "old", 0)).isEqualTo(ReleaseOutcome.DELETED);
	}

	private static long subscribersOf(String channel) {
		List<?> reply = (List<?>) RedisAdminCommands.call(RedisTestServers.shared(), "PUBSUB", "NUMSUB", channel);
		return (Long) reply.get(1);
	}

	private long fenceAfter(Runnable action) {
		action.run();
		return Long.parseLong(this.redis.opsForValue().get(KEYSPACE.fenceKey("any")));
	}

	/**
	 * Queues places whose validity ended a second ago, as acquire.lua writes them, with
	 * the queue kept for the places of later waiters.
	 */
	private void queueLapsedPlaces(String key, String... tokens) {
		long lapsed = serverMillis() - 1_000;
		for (String token : tokens) {
			this.redis.opsForHash()
				.put(KEYSPACE.waitersKey(key), token, lapsed + " " + CLAIM_WINDOW + " 1 publish " + NOBODY_LISTENS);
			this.redis.opsForList().rightPush(KEYSPACE.queueKey(key), token);
		}
		this.redis.expire(KEYSPACE.queueKey(key), Duration.ofMillis(PLACE));
		this.redis.expire(KEYSPACE.waitersKey(key), Duration.ofMillis(PLACE));
	}

	private long serverMillis() {
		List<Object> time = this.redis.execute((RedisCallback<List<Object>>) (connection) -> {
			Long millis = connection.serverCommands().time();
			return List.of(millis);
		});
		return (Long) time.get(0);
	}

}
