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
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Issue 23, a read lock and a semaphore's permit: the request or the reply of an acquire
 * or a release is lost (and the connection reset). The key is free again within 2 s of
 * the failure (a writer gets in, or both permits are granted together), and no hold is
 * left in the key to inflate its holder count. The control loses the reply of a plain
 * counter semaphore's {@code INCR}: the count stays inflated, with no expiry.
 */
class SharedLostReplyTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long REQUIRED_MS = 2000;

	private static final long SLACK_MS = 300;

	private static final long COMMAND_TIMEOUT_MS = 2000;

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
		for (Kind kind : Kind.values()) {
			proxied.lock("lock:warm-up:" + kind, kind.options()).release();
		}
	}

	@AfterAll
	static void stop() {
		apps.close();
		proxy.close();
		redis.close();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void acquireWhoseReplyIsLostLeavesNoHold(Kind kind) {
		String key = "lock:shared-lost-acquire:" + UUID.randomUUID();
		ReplyDrop drop = proxy.dropNextReplyTo(key);
		long start = System.nanoTime();
		Throwable failure = null;
		try {
			proxied.tryLock(key, kind.options()).ifPresent(LockHandle::release);
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		long failed = System.nanoTime();
		long members = members(key);
		long freed = kind.firstFullAcquisition(key, Duration.ofSeconds(8));
		Figures.record("lost reply, " + kind + ": acquire",
				"reply dropped=%s; caller got %s after %d ms; holds in the key then %d; %s %s",
				drop.await(Duration.ZERO), name(failure), (failed - start) / 1_000_000, members, kind.freedBy(),
				describe(freed, failed));
		assertThat(failure).isInstanceOf(LockUnavailableException.class);
		assertThat((failed - start) / 1_000_000).as("ms until the caller got its exception")
			.isLessThanOrEqualTo(COMMAND_TIMEOUT_MS + SLACK_MS);
		assertFreedInTime(freed, failed);
		assertThat(members(key)).as("holds left in the key").isZero();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void releaseWhoseRequestIsLostLeavesNoHold(Kind kind) {
		String key = "lock:shared-lost-release-request:" + UUID.randomUUID();
		LockHandle handle = proxied.lock(key, kind.options());
		proxy.dropNextRequest(key);
		String outcome = LockCalls.release(handle);
		long failed = System.nanoTime();
		long freed = kind.firstFullAcquisition(key, Duration.ofSeconds(8));
		Figures.record("lost reply, " + kind + ": release request dropped", "release gave %s; %s %s", outcome,
				kind.freedBy(), describe(freed, failed));
		assertFreedInTime(freed, failed);
		assertThat(members(key)).as("holds left in the key").isZero();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void releaseWhoseReplyIsLostLeavesNoHold(Kind kind) {
		String key = "lock:shared-lost-release-reply:" + UUID.randomUUID();
		LockHandle handle = proxied.lock(key, kind.options());
		proxy.dropNextReplyTo(key);
		String outcome = LockCalls.release(handle);
		long failed = System.nanoTime();
		long freed = kind.firstFullAcquisition(key, Duration.ofSeconds(8));
		Figures.record("lost reply, " + kind + ": release reply dropped", "release gave %s; %s %s", outcome,
				kind.freedBy(), describe(freed, failed));
		assertFreedInTime(freed, failed);
		assertThat(members(key)).as("holds left in the key").isZero();
	}

	@Test
	void controlPlainCounterSemaphoreWhoseReplyIsLostStaysInflated() {
		String countKey = "lock:shared-lost-counter:" + UUID.randomUUID() + ":count";
		proxy.dropNextReplyTo(countKey);
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> proxiedTemplate.opsForValue().increment(countKey));
		Pause.millis(REQUIRED_MS + SLACK_MS);
		Long count = Resp.number(redis.port(), "GET", countKey);
		Long pttl = Resp.number(redis.port(), "PTTL", countKey);
		Figures.record("lost reply, shared: control",
				"plain counter semaphore, INCR reply lost: count %d with nobody holding, %d ms later (PTTL %d)", count,
				REQUIRED_MS + SLACK_MS, pttl);
		assertThat(count).isEqualTo(1L);
		assertThat(pttl).isEqualTo(-1L);
	}

	private static void assertFreedInTime(long freed, long failed) {
		assertThat(freed).as("key free again").isPositive();
		assertThat((freed - failed) / 1_000_000).as("ms from the failure until the key was free")
			.isLessThanOrEqualTo(REQUIRED_MS + SLACK_MS);
	}

	/** Holds (and holds kept for a minimum hold) left in the key's sorted set. */
	private static long members(String key) {
		Long count = Resp.number(redis.port(), "ZCARD", key);
		return (count != null) ? count : 0;
	}

	private static String name(Throwable failure) {
		return (failure != null) ? failure.getClass().getSimpleName() : "no exception";
	}

	private static String describe(long freed, long since) {
		return (freed > 0) ? (freed - since) / 1_000_000 + " ms after the failure" : "not within 8 s";
	}

	/** A shared kind of lock, and what shows its key free again. */
	enum Kind {

		/** The read side of a read-write lock: free when a writer gets in. */
		READ {

			@Override
			LockOptions options() {
				return new LockOptions(Duration.ZERO, LEASE).withMode(LockMode.READ);
			}

			@Override
			String freedBy() {
				return "a writer got in";
			}

			@Override
			long firstFullAcquisition(String key, Duration bound) {
				return LockCalls.firstAcquisition(direct, key,
						new LockOptions(Duration.ZERO, LEASE).withMode(LockMode.WRITE), bound);
			}

		},

		/** One of a semaphore's 2 permits: free when both are granted together. */
		PERMIT {

			@Override
			LockOptions options() {
				return new LockOptions(Duration.ZERO, LEASE).withPermits(2);
			}

			@Override
			String freedBy() {
				return "both permits granted together";
			}

			@Override
			long firstFullAcquisition(String key, Duration bound) {
				long deadline = System.nanoTime() + bound.toNanos();
				while (System.nanoTime() - deadline < 0) {
					// One thread re-enters its own permit: the second is asked for on
					// another thread.
					Optional<LockHandle> first = Optional.empty();
					Optional<LockHandle> second = Optional.empty();
					try {
						first = direct.tryLock(key, options());
						second = CompletableFuture.supplyAsync(() -> direct.tryLock(key, options())).join();
						if (first.isPresent() && second.isPresent()) {
							return System.nanoTime();
						}
					}
					catch (RuntimeException ex) {
						// Try again until the bound.
					}
					finally {
						first.ifPresent(LockCalls::release);
						second.ifPresent(LockCalls::release);
					}
					Pause.millis(20);
				}
				return -1;
			}

		};

		abstract LockOptions options();

		abstract String freedBy();

		abstract long firstFullAcquisition(String key, Duration bound);

	}

}
