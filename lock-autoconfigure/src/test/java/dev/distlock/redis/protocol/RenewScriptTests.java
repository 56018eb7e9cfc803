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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A renewal sets an owned lock's lease, as an extension does; a hand-over's confirmation
 * ({@link RedisLockCommands#renewAtLeast}) only raises it, so that it never undoes a
 * longer extension its holder sent meanwhile. Neither touches a lock held by another
 * owner.
 */
class RenewScriptTests {

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", false, 1024);

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final RedisLockCommands commands = new RedisLockCommands(this.redis, KEYSPACE, new RedisReachability(),
			2_000, ReplicaAcknowledgement.NONE);

	@Test
	void renewalSetsTheLeaseEvenBelowTheKeysExpiry() {
		String key = lockedFor("holder", Duration.ofSeconds(60));
		assertThat(this.commands.renew(List.of(key), List.of("holder"), 10_000).renewed()).containsExactly(true);
		assertThat(pttl(key)).isBetween(9_000L, 10_000L);
	}

	@Test
	void confirmationRaisesAShortExpiryToTheLease() {
		String key = lockedFor("holder", Duration.ofSeconds(2));
		assertThat(this.commands.renewAtLeast(key, "holder", 10_000).renewed()).containsExactly(true);
		assertThat(pttl(key)).isBetween(9_000L, 10_000L);
	}

	@Test
	void confirmationLeavesALongerExpiry() {
		String key = lockedFor("holder", Duration.ofSeconds(60));
		assertThat(this.commands.renewAtLeast(key, "holder", 10_000).renewed()).as("still the holder's")
			.containsExactly(true);
		assertThat(pttl(key)).as("the extension the holder counts, kept").isGreaterThan(55_000L);
	}

	@Test
	void confirmationOfAnotherOwnersLockChangesNothing() {
		String key = lockedFor("someone-else", Duration.ofSeconds(2));
		assertThat(this.commands.renewAtLeast(key, "holder", 10_000).renewed()).containsExactly(false);
		assertThat(pttl(key)).isLessThanOrEqualTo(2_000L);
	}

	@Test
	void confirmationOfASharedHoldRaisesAShortLeaseToTheLease() {
		String key = sharedFor("r1.holder", Duration.ofSeconds(2));
		assertThat(this.commands.renewAtLeast(key, "r1.holder", 10_000).renewed()).containsExactly(true);
		assertThat(pttl(key)).isBetween(9_000L, 10_000L);
		assertThat(memberLeft(key, "r1.holder")).isBetween(9_000L, 10_000L);
	}

	@Test
	void confirmationOfASharedHoldLeavesALongerLease() {
		String key = sharedFor("r1.holder", Duration.ofSeconds(60));
		assertThat(this.commands.renewAtLeast(key, "r1.holder", 10_000).renewed()).as("still the holder's")
			.containsExactly(true);
		assertThat(pttl(key)).as("the key's expiry the holder counts, kept").isGreaterThan(55_000L);
		assertThat(memberLeft(key, "r1.holder")).as("the member's lease the holder counts, kept")
			.isGreaterThan(55_000L);
	}

	/**
	 * A shared lock's key: its holder's token as a member scored with its lease's end.
	 */
	private String sharedFor(String token, Duration lease) {
		String key = TestRedis.uniqueKey("renew-shared");
		this.redis.opsForZSet().add(key, token, serverMillis() + lease.toMillis());
		this.redis.expire(key, lease);
		return key;
	}

	/** How long the member's lease lasts by the server's clock, in ms. */
	private long memberLeft(String key, String member) {
		Double score = this.redis.opsForZSet().score(key, member);
		assertThat(score).as("member %s", member).isNotNull();
		return score.longValue() - serverMillis();
	}

	private long serverMillis() {
		Long millis = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		assertThat(millis).isNotNull();
		return millis;
	}

	private String lockedFor(String token, Duration lease) {
		String key = TestRedis.uniqueKey("renew");
		this.redis.opsForValue().set(key, token, lease);
		return key;
	}

	private long pttl(String key) {
		Long pttl = this.redis.getExpire(key, TimeUnit.MILLISECONDS);
		return (pttl != null) ? pttl : -2;
	}

}
