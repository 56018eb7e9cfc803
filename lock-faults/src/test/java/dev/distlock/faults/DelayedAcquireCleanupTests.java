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
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23, finding 6 (second half): the background release of an acquire whose outcome
 * is unknown must not overtake that acquire. The proxy holds A's acquire back 1.5 s on
 * its connection (the connection stays open, other connections go on), while A's caller
 * cancels after 300 ms or A's 500 ms command timeout ends the call: A's cleanup is sent
 * while the acquire is still on its way. The key must be free again within 1 s of the
 * held-back acquire reaching Redis (not after its 30 s lease): B, on a direct connection,
 * tries every 20 ms from then on. Run for a reactive acquire (cancelled, timed out, and
 * with its reply lost instead), a blocking one, and a blocking one whose grants replicas
 * acknowledge ({@code distlock.replication.min-replicas-acked=1}); for a reactive acquire
 * cancelled, whose connection is then reset before the held-back request was forwarded
 * (free within 1 s of the reset + the 1.5 s); and for a reactive acquire cancelled while
 * B takes the key and holds it across the late acquire and its cleanup (never held by
 * both: B keeps it, releases it without a lost lease, and it is free again at once). The
 * control does with a plain {@code SET NX PX} on the reactive connection what the cleanup
 * did on the blocking connection: a compare-and-delete sent on another connection after
 * the cancel overtakes the held-back SET, which then leaves the key held for its lease.
 */
class DelayedAcquireCleanupTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static final long HELD_BACK_MS = 1500;

	private static final long COMMAND_TIMEOUT_MS = 500;

	private static final long REQUIRED_MS = 1000;

	private static final Duration TRYING = Duration.ofSeconds(8);

	private static final RedisScript<Long> COMPARE_AND_DELETE = RedisScript
		.of("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", Long.class);

	private static RedisNode redis;

	private static RedisNode replica;

	private static FaultProxy proxy;

	private static LockApps apps;

	private static ReactiveLockClient reactiveHolder;

	private static LockClient blockingHolder;

	private static LockClient acknowledgedHolder;

	private static ReactiveStringRedisTemplate reactiveTemplate;

	private static StringRedisTemplate blockingTemplate;

	private static LockClient contender;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		replica = RedisNode.start(Persistence.NONE);
		Resp.call(replica.port(), "REPLICAOF", "127.0.0.1", String.valueOf(redis.port()));
		proxy = FaultProxy.start(redis.port());
		apps = new LockApps();
		String timeout = "spring.data.redis.timeout=" + COMMAND_TIMEOUT_MS + "ms";
		ConfigurableApplicationContext holder = apps.start(proxy.port(), timeout);
		reactiveHolder = holder.getBean(ReactiveLockClient.class);
		blockingHolder = holder.getBean(LockClient.class);
		// On the connections distlock uses: the factory's shared blocking and reactive
		// ones.
		reactiveTemplate = new ReactiveStringRedisTemplate(holder.getBean(ReactiveRedisConnectionFactory.class));
		blockingTemplate = holder.getBean(StringRedisTemplate.class);
		acknowledgedHolder = apps.client(proxy.port(), timeout, "distlock.replication.min-replicas-acked=1",
				"distlock.replication.ack-timeout=200ms");
		contender = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		awaitReplicaOnline();
		// Load the scripts, so that the faults hit EVALSHA calls that run, and open the
		// reactive connection, so that they hit a connection past its handshake.
		blockingHolder.lock("lock:warm-up", NO_WAIT).release();
		LockApps.loadScripts(blockingHolder);
		// The replica's first acknowledgements after its initial sync may take longer
		// than
		// the 200ms the scenario allows on a loaded machine: the warm-up is no
		// measurement,
		// so it tries again until one is acknowledged.
		await().atMost(Duration.ofSeconds(20))
			.ignoreExceptionsInstanceOf(ReplicaAcknowledgementException.class)
			.until(() -> {
				acknowledgedHolder.lock("lock:warm-up", NO_WAIT).release();
				return true;
			});
		reactiveHolder.lock("lock:warm-up", NO_WAIT).flatMap(ReactiveLockHandle::release).block();
	}

	@AfterAll
	static void stop() {
		apps.close();
		proxy.close();
		replica.close();
		redis.close();
	}

	@Test
	void reactiveAcquireCancelledWhileItsRequestIsHeldBack() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(reactiveHolder.tryLock(key, NO_WAIT).timeout(Duration.ofMillis(300)));
		assertFreedSoon("reactive acquire cancelled after 300 ms", outcome, key, held);
	}

	@Test
	void reactiveAcquireTimedOutWhileItsRequestIsHeldBack() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(reactiveHolder.tryLock(key, NO_WAIT));
		assertFreedSoon("reactive acquire timed out (500 ms)", outcome, key, held);
	}

	@Test
	void reactiveAcquireCancelledWhileAnotherTakesAndHoldsTheKey() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(reactiveHolder.tryLock(key, NO_WAIT).timeout(Duration.ofMillis(300)));
		LockHandle other = contender.tryLock(key, NO_WAIT).orElseThrow();
		awaitLanded(held);
		// The late acquire found B's lock, and the cleanup behind it left B's lock alone.
		Pause.millis(200);
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		boolean stillHeld = !other.isLeaseLost() && pttl != null && pttl > 20_000;
		String released = outcome(other::release);
		long next = LockCalls.firstAcquisition(contender, key, NO_WAIT, TRYING);
		Figures.record("delayed acquire cleanup: reactive acquire cancelled while B takes and holds the key",
				"caller got %s; B held the key across the late acquire and its cleanup: %s; B's release gave %s; "
						+ "the key granted again %s",
				outcome, stillHeld, released, (next > 0) ? "at once" : "not within " + TRYING.toSeconds() + " s");
		assertThat(stillHeld).as("B still held the key, alone").isTrue();
		assertThat(released).isEqualTo("no exception");
		assertThat(next).as("nothing of A's left on the key").isPositive();
	}

	@Test
	void reactiveAcquireCancelledThenItsConnectionReset() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(reactiveHolder.tryLock(key, NO_WAIT).timeout(Duration.ofMillis(300)));
		Pause.millis(300);
		// The held-back acquire and the cleanup behind it are lost with the connection;
		// Lettuce sends the cleanup again on its next connection (it was not answered),
		// not the cancelled acquire.
		proxy.resetAll(false);
		long reset = System.nanoTime();
		awaitLanded(held);
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		long next = LockCalls.firstAcquisition(contender, key, NO_WAIT, TRYING);
		Figures.record("delayed acquire cleanup: reactive acquire cancelled, then its connection reset",
				"caller got %s; key's PTTL %d ms 1.5 s after the acquire was sent; B granted the key %s the reset",
				outcome, pttl, since(reset, next));
		assertThat(next).as("B acquired").isPositive();
		assertThat((next - reset) / 1_000_000).isLessThanOrEqualTo(HELD_BACK_MS + REQUIRED_MS);
	}

	@Test
	void reactiveAcquireWhoseReplyIsLost() {
		String key = key();
		ReplyDrop dropped = proxy.dropNextReplyTo(key);
		long sent = System.nanoTime();
		String outcome = outcome(reactiveHolder.tryLock(key, NO_WAIT));
		long answered = System.nanoTime();
		long next = LockCalls.firstAcquisition(contender, key, NO_WAIT, TRYING);
		Figures.record("delayed acquire cleanup: reactive acquire, reply lost",
				"reply dropped=%s; caller got %s after %d ms; B granted the key %s", dropped.await(Duration.ZERO),
				outcome, (answered - sent) / 1_000_000, since(answered, next) + " the caller's exception");
		assertThat(next).as("B acquired").isPositive();
		assertThat((next - answered) / 1_000_000).isLessThanOrEqualTo(REQUIRED_MS);
	}

	@Test
	void blockingAcquireTimedOutWhileItsRequestIsHeldBack() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(() -> blockingHolder.tryLock(key, NO_WAIT).ifPresent(LockHandle::release));
		assertFreedSoon("blocking acquire timed out (500 ms)", outcome, key, held);
	}

	@Test
	void acknowledgedAcquireTimedOutWhileItsRequestIsHeldBack() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(() -> acknowledgedHolder.tryLock(key, NO_WAIT).ifPresent(LockHandle::release));
		assertFreedSoon("blocking acquire acknowledged by a replica, timed out (500 ms)", outcome, key, held);
	}

	@Test
	void controlCleanupOnAnotherConnectionOvertakesAHeldBackSet() {
		String key = key();
		ReplyDrop held = proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(reactiveTemplate.opsForValue()
			.setIfAbsent(key, "owner", Duration.ofSeconds(30))
			.timeout(Duration.ofMillis(300)));
		Long deleted = blockingTemplate.execute(COMPARE_AND_DELETE, List.of(key), "owner");
		awaitLanded(held);
		Long pttl = pttlOnceSet(key);
		Figures.record("delayed acquire cleanup control",
				"plain SET NX PX 30000 on the reactive connection held back %d ms, cancelled (%s), compare-and-delete "
						+ "on the blocking connection deleted %d; key then left with PTTL %d ms",
				HELD_BACK_MS, outcome, deleted, pttl);
		assertThat(pttl).isGreaterThan(20_000L);
	}

	private static void assertFreedSoon(String scenario, String outcome, String key, ReplyDrop held) {
		long landed = awaitLanded(held);
		long next = LockCalls.firstAcquisition(contender, key, NO_WAIT, TRYING);
		Figures.record("delayed acquire cleanup: " + scenario,
				"acquire held back %d ms on its connection; caller got %s; B granted the key %s", HELD_BACK_MS, outcome,
				since(landed, next) + " the acquire reached Redis");
		assertThat(outcome).as("the caller's outcome").endsWith("Exception");
		assertThat(next).as("B acquired before the lease ran out").isPositive();
		assertThat((next - landed) / 1_000_000).as("ms from the acquire reaching Redis to B's grant")
			.isLessThanOrEqualTo(REQUIRED_MS);
	}

	/**
	 * Waits until the proxy has written the held-back acquire on to Redis, which is
	 * {@link #HELD_BACK_MS} after it arrived or later, when the proxy's thread wakes late
	 * on a busy machine (it once woke more than the 5 ms this used to allow, and the
	 * control read the key before the acquire had landed), or until it was lost with its
	 * connection.
	 * @return {@link System#nanoTime()} when it was written on or found lost
	 */
	private static long awaitLanded(ReplyDrop held) {
		assertThat(held.await(Duration.ofSeconds(2))).as("the acquire reached the proxy").isTrue();
		long landed = held.awaitForwarded(Duration.ofMillis(HELD_BACK_MS).plusSeconds(5));
		assertThat(landed).as("the held-back acquire was written on to Redis or lost with its connection")
			.isNotNegative();
		return (landed > 0) ? landed : System.nanoTime();
	}

	/**
	 * Returns the key's remaining time to live once it exists, or what Redis says after 1
	 * s if it never does: the held-back acquire is on its way to Redis on another
	 * connection than the one that asks.
	 */
	private static Long pttlOnceSet(String key) {
		long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		while (pttl != null && pttl < 0 && System.nanoTime() - deadline < 0) {
			Pause.millis(5);
			pttl = Resp.number(redis.port(), "PTTL", key);
		}
		return pttl;
	}

	private static void awaitReplicaOnline() {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!String.valueOf(Resp.call(redis.port(), "INFO", "replication")).contains("state=online")) {
			assertThat(System.nanoTime() - deadline).as("the replica is online within 10 s").isNegative();
			Pause.millis(20);
		}
	}

	private static String outcome(Mono<?> call) {
		try {
			Object value = call.block(Duration.ofSeconds(10));
			return (value != null) ? "acquired" : "not acquired";
		}
		catch (RuntimeException ex) {
			return Exceptions.unwrap(ex).getClass().getSimpleName();
		}
	}

	private static String outcome(Runnable call) {
		try {
			call.run();
			return "no exception";
		}
		catch (RuntimeException ex) {
			return ex.getClass().getSimpleName();
		}
	}

	private static String since(long from, long next) {
		return (next > 0) ? (next - from) / 1_000_000 + " ms after" : "not within " + TRYING.toSeconds() + " s after";
	}

	private static String key() {
		return "lock:delayed-acquire:" + UUID.randomUUID();
	}

}
