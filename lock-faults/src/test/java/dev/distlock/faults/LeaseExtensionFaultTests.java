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

package dev.distlock.faults;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, item 7: {@link LockHandle#extend(Duration)} under faults keeps the rules of a
 * renewal. An extension that Redis applied but whose reply was lost moves nothing: the
 * holder still counts its lease from the acquire and knows it lost at the old deadline,
 * while Redis keeps the key longer (the safe side). An extension held back in the network
 * until the lease ran out and another client took the lock finds the key held by another
 * owner, writes nothing, and reports the lease lost. The control sends the naive
 * extension, {@code PEXPIRE} without an owner check, held back the same way: it lengthens
 * the new holder's lock.
 */
class LeaseExtensionFaultTests {

	private static final long SLACK_MS = 300;

	private static RedisNode redis;

	private static FaultProxy proxy;

	private static LockApps apps;

	private static LockClient proxied;

	private static StringRedisTemplate proxiedTemplate;

	private static LockClient direct;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		proxy = FaultProxy.start(redis.port());
		apps = new LockApps();
		proxied = apps.client(proxy.port(), "spring.data.redis.timeout=2s");
		proxiedTemplate = apps.start(proxy.port(), "spring.data.redis.timeout=2s").getBean(StringRedisTemplate.class);
		direct = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		// Load the scripts, so that the faults hit EVALSHA calls that run.
		LockHandle warmUp = proxied.lock("lock:warm-up", new LockOptions(Duration.ZERO, Duration.ofSeconds(30)));
		warmUp.extend(Duration.ofSeconds(30));
		warmUp.release();
		LockApps.loadScripts(proxied);
	}

	@AfterAll
	static void stop() {
		apps.close();
		proxy.close();
		redis.close();
	}

	@Test
	void extensionWhoseReplyIsLostLeavesTheOldDeadline() {
		String key = "lock:extend-lost-reply:" + UUID.randomUUID();
		long asked = System.nanoTime();
		LockHandle handle = proxied.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(4)));
		ReplyDrop drop = proxy.dropNextReplyTo(key);
		@Nullable RuntimeException failure = extend(handle, Duration.ofSeconds(30));
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		long lostAt = LockCalls.leaseLostAt(handle, Duration.ofSeconds(6));
		Figures.record("extension: reply lost",
				"reply dropped=%s; extend gave %s; key's PTTL then %d ms (extended in Redis); the holder knew "
						+ "its lease lost %d ms after asking for the lock (its 4 s lease)",
				drop.await(Duration.ZERO), describe(failure), pttl, (lostAt - asked) / 1_000_000);
		assertThat(failure).isInstanceOf(LockUnavailableException.class);
		assertThat(((LockUnavailableException) failure).getOperation()).isEqualTo(LockUnavailableException.EXTEND);
		assertThat(pttl).as("PTTL after the extension Redis applied").isGreaterThan(20_000L);
		assertThat(lostAt).as("lease lost by the local count").isPositive();
		assertThat((lostAt - asked) / 1_000_000).as("ms from asking for the lock to knowing it lost")
			.isLessThanOrEqualTo(4_000 + SLACK_MS);
		LockCalls.release(handle);
	}

	@Test
	void extensionHeldBackUntilAnotherClientTookTheLockWritesNothing() {
		String key = "lock:extend-held-back:" + UUID.randomUUID();
		LockHandle handle = proxied.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(1)));
		proxy.holdNextRequest(key, 1_500);
		CompletableFuture<@Nullable RuntimeException> extension = CompletableFuture
			.supplyAsync(() -> extend(handle, Duration.ofSeconds(30)));
		LockHandle next = LockCalls.lockEventually(direct, key, new LockOptions(Duration.ZERO, Duration.ofSeconds(5)));
		@Nullable RuntimeException failure = extension.join();
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		Figures.record("extension: held back past the lease",
				"extend gave %s; the new holder's key then has PTTL %d ms (its lease: 5000 ms)", describe(failure),
				pttl);
		assertThat(failure).isInstanceOf(LockLeaseLostException.class);
		assertThat(handle.isLeaseLost()).isTrue();
		assertThat(pttl).as("the new holder's lease, untouched").isLessThanOrEqualTo(5_000L);
		assertThat(LockCalls.release(next)).isEqualTo("no exception");
	}

	@Test
	void controlNaiveExtensionHeldBackLengthensTheNewHoldersLock() {
		String key = "lock:extend-held-back-naive:" + UUID.randomUUID();
		proxiedTemplate.opsForValue().set(key, "stale-owner", Duration.ofSeconds(1));
		proxy.holdNextRequest(key, 1_500);
		CompletableFuture<Boolean> extension = CompletableFuture
			.supplyAsync(() -> proxiedTemplate.expire(key, Duration.ofSeconds(30)));
		LockHandle next = LockCalls.lockEventually(direct, key, new LockOptions(Duration.ZERO, Duration.ofSeconds(5)));
		extension.join();
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		Figures.record("extension control",
				"naive PEXPIRE 30000 held back past the lease: the new holder's key then has PTTL %d ms (its lease: "
						+ "5000 ms)",
				pttl);
		assertThat(pttl).as("the new holder's lock, lengthened by the stale holder").isGreaterThan(20_000L);
		LockCalls.release(next);
	}

	private static @Nullable RuntimeException extend(LockHandle handle, Duration leaseTime) {
		try {
			handle.extend(leaseTime);
			return null;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	private static String describe(@Nullable RuntimeException failure) {
		return (failure != null) ? failure.getClass().getSimpleName() : "no exception";
	}

}
