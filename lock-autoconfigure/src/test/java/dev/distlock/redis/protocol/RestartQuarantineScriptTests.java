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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The restart quarantine in the scripts, command by command, each test in a keyspace of
 * its own (a fresh prefix, so a slot counter no other test has written): a missing
 * fencing counter starts the quarantine, during which the acquire scripts (exclusive,
 * shared, several keys) grant nothing and report its rest as a holder's lease, and a
 * release does not hand the lock over; once it has expired, grants resume with tokens
 * above the counter it set. With the quarantine off, the scripts neither read nor write
 * its key.
 */
class RestartQuarantineScriptTests {

	private static final long LEASE = 30_000;

	private static final long PLACE = 3_000;

	private static final Duration QUARANTINE = Duration.ofMillis(500);

	private static final String NOBODY_LISTENS = "test:distlock:released:nobody";

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final LockKeyspace keyspace = new LockKeyspace(TestRedis.uniqueKey("quarantine") + ":", false, 1024);

	private final RedisLockCommands commands = commands(new RestartQuarantine(QUARANTINE));

	@Test
	void offTheScriptsGrantOnAFreshServerAndNeverTouchTheQuarantineKey() {
		RedisLockCommands off = commands(RestartQuarantine.OFF);
		String key = this.keyspace.lockKey("off");
		assertThat(off.acquire(key, "holder", LEASE, null, 0, 1, false).granted()).isTrue();
		off.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1, false);
		assertThat(off.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
		assertThat(off.multiAcquire(List.of(this.keyspace.lockKey("off-a"), this.keyspace.lockKey("off-b")), "multi",
				LEASE))
			.isInstanceOf(MultiAcquireReply.Granted.class);
		assertThat(this.redis.hasKey(this.keyspace.quarantineKey(key))).as("the quarantine key").isFalse();
	}

	@Test
	void aMissingCounterStartsTheQuarantineDuringWhichNothingIsGranted() {
		String key = this.keyspace.lockKey("exclusive");
		long before = serverMicros();
		AcquireReply.Held held = (AcquireReply.Held) this.commands.acquire(key, "first", LEASE, NOBODY_LISTENS, PLACE,
				1, false);
		assertThat(held.quarantined()).as("quarantined").isTrue();
		assertThat(held.holderLeaseMillis()).as("rest of the quarantine, as a holder's lease")
			.isEqualTo(QUARANTINE.toMillis());
		assertThat(held.fenceCounter()).as("the counter, set to the server's clock").isGreaterThanOrEqualTo(before);
		assertThat(this.redis.hasKey(key)).as("the lock key").isFalse();
		assertThat(this.redis.hasKey(this.keyspace.queueKey(key))).as("a place in the queue").isFalse();
		String quarantineKey = this.keyspace.quarantineKey(key);
		assertThat(this.redis.getExpire(quarantineKey)).as("the quarantine key expires").isNotNegative();
		assertThat(Long.parseLong(this.redis.opsForValue().get(quarantineKey))).as("its end, ms by the server clock")
			.isBetween(before / 1000 + QUARANTINE.toMillis(), before / 1000 + QUARANTINE.toMillis() + 1_000);
		AcquireReply.Held again = (AcquireReply.Held) this.commands.acquire(key, "second", LEASE, null, 0, 1, false);
		assertThat(again.quarantined()).isTrue();
		assertThat(again.holderLeaseMillis()).as("the same quarantine, not a new one")
			.isLessThanOrEqualTo(QUARANTINE.toMillis());
		await().atMost(Duration.ofSeconds(3))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.commands.acquire(key, "second", LEASE, null, 0, 1, false).granted());
		assertThat(this.redis.opsForValue().get(key)).isEqualTo("second");
		assertThat(Long.parseLong(this.redis.opsForValue().get(this.keyspace.fenceKey(key))))
			.as("the token of the first grant")
			.isGreaterThan(held.fenceCounter());
		assertThat(this.commands.acquire(this.keyspace.lockKey("other"), "third", LEASE, null, 0, 1, false).granted())
			.as("another key of the slot, the counter found")
			.isTrue();
	}

	@Test
	void sharedLocksAndSeveralKeysAreQuarantinedToo() {
		String shared = this.keyspace.lockKey("shared");
		AcquireReply reader = this.commands.acquire(shared, "r.reader", LEASE, null, 0, 1, false);
		assertThat(reader).isInstanceOfSatisfying(AcquireReply.Held.class,
				(held) -> assertThat(held.quarantined()).isTrue());
		List<String> keys = List.of(this.keyspace.lockKey("a"), this.keyspace.lockKey("b"));
		assertThat(this.commands.multiAcquire(keys, "multi", LEASE)).isInstanceOfSatisfying(
				MultiAcquireReply.Held.class,
				(held) -> assertThat(held.holderLeaseMillis()).isBetween(1L, QUARANTINE.toMillis()));
		assertThat(this.redis.countExistingKeys(List.of(shared, keys.get(0), keys.get(1)))).as("lock keys written")
			.isZero();
		await().atMost(Duration.ofSeconds(3))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.commands.acquire(shared, "r.reader", LEASE, null, 0, 1, false).granted());
		assertThat(this.commands.multiAcquire(keys, "multi", LEASE)).isInstanceOf(MultiAcquireReply.Granted.class);
	}

	@Test
	void aReleaseDoesNotHandTheLockOverWhenTheCounterIsGone() {
		String key = this.keyspace.lockKey("hand-over");
		startAndWaitOut(key);
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, false).granted()).isTrue();
		assertThat(this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1, false).granted()).isFalse();
		this.redis.delete(this.keyspace.fenceKey(key));
		assertThat(this.commands.release(key, "holder", 0)).as("released, not handed over")
			.isEqualTo(ReleaseOutcome.DELETED);
		assertThat(this.redis.hasKey(key)).isFalse();
		assertThat(this.commands.acquire(key, "waiter", LEASE, NOBODY_LISTENS, PLACE, 1, true))
			.isInstanceOfSatisfying(AcquireReply.Held.class, (held) -> assertThat(held.quarantined()).isTrue());
	}

	@Test
	void aSharedReleaseDoesNotHandTheLockOverDuringTheQuarantine() {
		String key = this.keyspace.lockKey("shared-hand-over");
		startAndWaitOut(key);
		assertThat(this.commands.acquire(key, "w.writer", LEASE, null, 0, 1, false).granted()).isTrue();
		assertThat(this.commands.acquire(key, "r.reader", LEASE, NOBODY_LISTENS, PLACE, 1, false).granted()).isFalse();
		this.redis.delete(this.keyspace.fenceKey(key));
		assertThat(this.commands.release(key, "w.writer", 0)).as("released, not handed over")
			.isEqualTo(ReleaseOutcome.DELETED);
		assertThat(this.redis.hasKey(key)).isFalse();
	}

	@Test
	void aQuarantineKeyWithoutExpiryHoldsUntilDeleted() {
		String key = this.keyspace.lockKey("by-hand");
		startAndWaitOut(key);
		this.redis.opsForValue().set(this.keyspace.quarantineKey(key), "set by hand");
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, false))
			.isInstanceOfSatisfying(AcquireReply.Held.class, (held) -> {
				assertThat(held.quarantined()).isTrue();
				assertThat(held.holderLeaseMillis()).isEqualTo(Integer.MAX_VALUE);
			});
		this.redis.delete(this.keyspace.quarantineKey(key));
		assertThat(this.commands.acquire(key, "holder", LEASE, null, 0, 1, false).granted()).isTrue();
	}

	@Test
	void everyScriptThatGrantsCarriesTheSameQuarantineFunction() throws IOException {
		List<String> functions = new ArrayList<>();
		for (String script : List.of("acquire", "shared-acquire", "multi-acquire", "release", "shared-release")) {
			String text = new ClassPathResource("dev/distlock/redis/" + script + ".lua")
				.getContentAsString(StandardCharsets.UTF_8);
			int start = text.indexOf("local function quarantine(");
			assertThat(start).as("the quarantine function of %s.lua", script).isNotNegative();
			functions.add(text.substring(start, text.indexOf("\nend\n", start)));
		}
		assertThat(functions).as("the quarantine functions").allMatch(functions.get(0)::equals);
	}

	/** Starts the quarantine of the keyspace's slot and waits until it is over. */
	private void startAndWaitOut(String key) {
		await().atMost(Duration.ofSeconds(3))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.commands.acquire(key, "starter", LEASE, null, 0, 1, false).granted());
		this.commands.release(key, "starter", 0);
	}

	private long serverMicros() {
		return this.redis
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS));
	}

	private RedisLockCommands commands(RestartQuarantine quarantine) {
		return new RedisLockCommands(this.redis, this.keyspace, new RedisReachability(), 2_000,
				ReplicaAcknowledgement.NONE, quarantine);
	}

}
