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
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.protocol.LockKeyspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A grant whose reply comes after its lease may have run out, counted from the request,
 * is never trusted, and the caller is told so. The proxy holds the acquire of a free key
 * back 400 ms, longer than its 300 ms lease: a caller that does not wait gets no hold
 * ({@code tryLock} is empty; {@code lock} fails with a {@link LockNotAcquiredException}
 * that says the grant came too late, not that another holder kept the lock), the client
 * lists no hold, and another client gets the key; a caller that waits takes the key with
 * its next attempt, whose reply comes in time. Blocking and reactive, and for several
 * keys locked together, both when they are taken in one script and when they are taken
 * one by one (a key the thread already holds makes it go key by key). The controls hold
 * back the acquire of a 10 s lease the same way: it is granted.
 */
class LateGrantTests {

	private static final long HELD_BACK_MS = 400;

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, SHORT_LEASE);

	private static final LockOptions WAITING = new LockOptions(Duration.ofSeconds(5), SHORT_LEASE);

	private static RedisNode redis;

	private static FaultProxy proxy;

	private static LockApps apps;

	private static RedisLockClient proxied;

	private static ReactiveLockClient reactive;

	private static RedisLockClient direct;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		proxy = FaultProxy.start(redis.port());
		apps = new LockApps();
		ConfigurableApplicationContext application = apps.start(proxy.port(), "spring.data.redis.timeout=2s");
		proxied = application.getBean(RedisLockClient.class);
		reactive = application.getBean(ReactiveLockClient.class);
		direct = apps.start(redis.port(), "spring.data.redis.timeout=2s").getBean(RedisLockClient.class);
		// Load the scripts and open the connections, so that only the held-back request
		// is slow.
		proxied.lock("lock:warm-up", NO_WAIT).release();
		LockApps.loadScripts(proxied);
		reactive.lock("lock:warm-up", NO_WAIT).flatMap(ReactiveLockHandle::release).block(Duration.ofSeconds(5));
	}

	@AfterAll
	static void stop() {
		apps.close();
		proxy.close();
		redis.close();
	}

	@Test
	void lockWhoseGrantComesAfterItsLeaseFailsSayingSo() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> proxied.lock(key, NO_WAIT))
			.satisfies((ex) -> assertTooLate(ex, key));
		assertLetGo("blocking lock", key, held);
	}

	@Test
	void tryLockWhoseGrantComesAfterItsLeaseIsEmpty() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		Optional<LockHandle> handle = proxied.tryLock(key, NO_WAIT);
		handle.ifPresent(LockHandle::release);
		assertThat(handle).as("a hold from a grant that came after its lease").isEmpty();
		assertLetGo("blocking tryLock", key, held);
	}

	@Test
	void reactiveLockWhoseGrantComesAfterItsLeaseFailsSayingSo() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		Mono<ReactiveLockHandle> lock = reactive.lock(key, NO_WAIT);
		assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> lock.block(Duration.ofSeconds(10)))
			.satisfies((ex) -> assertTooLate(ex, key));
		assertLetGo("reactive lock", key, held);
	}

	@Test
	void lockOfSeveralKeysWhoseGrantComesAfterItsLeaseFailsSayingSo() {
		String first = key();
		String second = key();
		// One script takes both keys: its request names both.
		ReplyDrop held = proxy.holdNextRequest(second, HELD_BACK_MS);
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> proxied.lock(List.of(first, second), NO_WAIT))
			.satisfies((ex) -> {
				// Named by the first key of the lock order, by slot, then by name.
				String named = firstInLockOrder(first, second);
				assertThat(ex.getKey()).endsWith(named);
				assertTooLate(ex, named);
			});
		assertLetGo("blocking lock of two keys in one script", first, held);
		assertLetGo("blocking lock of two keys in one script", second, held);
	}

	@Test
	void waitingLockOfSeveralKeysTakesThemAfterTheirGrantCameTooLate() {
		String first = key();
		String second = key();
		ReplyDrop held = proxy.holdNextRequest(second, HELD_BACK_MS);
		try (LockHandle handle = proxied.lock(List.of(first, second), WAITING)) {
			assertThat(held.await(Duration.ZERO)).as("the attempt in one script was held back").isTrue();
			assertThat(handle.isLeaseLost()).isFalse();
			assertThat(proxied.monitor().heldLocks()).as("holds listed").hasSize(2);
			Figures.record("late grant: blocking caller of two keys that waits",
					"the script for both held back %d ms past its %d ms lease; taken key by key after it", HELD_BACK_MS,
					SHORT_LEASE.toMillis());
		}
	}

	@Test
	void lockOfSeveralKeysTakenOneByOneWhoseGrantComesAfterItsLeaseFailsSayingSo() {
		String first = key();
		String second = key();
		try (LockHandle outer = proxied.lock(first, new LockOptions(Duration.ZERO, Duration.ofSeconds(10)))) {
			ReplyDrop held = proxy.holdNextRequest(second, HELD_BACK_MS);
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> proxied.lock(List.of(first, second), NO_WAIT))
				.satisfies((ex) -> assertTooLate(ex, second));
			assertThat(held.await(Duration.ZERO)).as("the attempt was held back").isTrue();
			assertThat(outer.isLeaseLost()).as("the key the thread held before").isFalse();
		}
		assertFree("blocking lock of two keys one by one", second);
	}

	@Test
	void controlALockOfSeveralKeysHeldBackWithinItsLeaseIsTrusted() {
		String first = key();
		String second = key();
		ReplyDrop held = proxy.holdNextRequest(second, HELD_BACK_MS);
		try (LockHandle handle = proxied.lock(List.of(first, second),
				new LockOptions(Duration.ZERO, Duration.ofSeconds(10)))) {
			assertThat(held.await(Duration.ZERO)).as("the attempt was held back").isTrue();
			assertThat(handle.isLeaseLost()).isFalse();
		}
	}

	@Test
	void waitingCallerTakesTheKeyWithItsNextAttempt() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		try (LockHandle handle = proxied.lock(key, WAITING)) {
			assertThat(held.await(Duration.ZERO)).as("the first attempt was held back").isTrue();
			assertThat(handle.isLeaseLost()).isFalse();
			Figures.record("late grant: blocking caller that waits",
					"first attempt held back %d ms past its %d ms lease; the next attempt granted it", HELD_BACK_MS,
					SHORT_LEASE.toMillis());
		}
	}

	@Test
	void reactiveWaitingCallerTakesTheKeyWithItsNextAttempt() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		ReactiveLockHandle handle = reactive.lock(key, WAITING).block(Duration.ofSeconds(10));
		assertThat(handle).isNotNull();
		assertThat(held.await(Duration.ZERO)).as("the first attempt was held back").isTrue();
		assertThat(handle.isLeaseLost()).isFalse();
		handle.release().block(Duration.ofSeconds(5));
	}

	@Test
	void controlAGrantHeldBackWithinItsLeaseIsTrusted() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		try (LockHandle handle = proxied.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(10)))) {
			assertThat(held.await(Duration.ZERO)).as("the attempt was held back").isTrue();
			assertThat(handle.isLeaseLost()).isFalse();
		}
	}

	private static void assertTooLate(LockNotAcquiredException ex, String key) {
		Figures.record("late grant: the caller's exception", "%s", ex.getMessage());
		assertThat(ex.getMessage()).contains(key)
			.contains("Redis granted it, but the grant came")
			.contains("lease of 300ms")
			.contains("Use a lease well above the time Redis takes to answer")
			.doesNotContain("another holder kept it");
		assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(HELD_BACK_MS));
	}

	/** Nothing listed as held, and the key free for another client at once. */
	private static void assertLetGo(String call, String key, ReplyDrop held) {
		assertThat(held.await(Duration.ZERO)).as("the attempt was held back").isTrue();
		assertFree(call, key);
	}

	private static void assertFree(String call, String key) {
		assertThat(proxied.monitor().heldLocks()).as("holds listed after a late grant").isEmpty();
		Optional<LockHandle> next = direct.tryLock(key, new LockOptions(Duration.ofSeconds(2), Duration.ofSeconds(10)));
		Figures.record("late grant: " + call, "acquire held back %d ms past its %d ms lease; another client %s",
				HELD_BACK_MS, SHORT_LEASE.toMillis(), next.isPresent() ? "got the key" : "did not get the key in 2 s");
		assertThat(next).as("the key for another client").isPresent();
		next.get().release();
	}

	/**
	 * The key the client locks first: by hash slot, then by name (no key prefix here).
	 */
	private static String firstInLockOrder(String first, String second) {
		int bySlot = Integer.compare(LockKeyspace.slot(first), LockKeyspace.slot(second));
		return (bySlot < 0 || (bySlot == 0 && first.compareTo(second) <= 0)) ? first : second;
	}

	private static String key() {
		return "lock:late-grant:" + UUID.randomUUID();
	}

}
