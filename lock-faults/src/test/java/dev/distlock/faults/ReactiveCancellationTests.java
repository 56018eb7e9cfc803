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
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Mono;

import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.reactive.ReactiveLockClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Issue 23, reactive work: the subscriber times out (and cancels) while the reply of the
 * acquire is lost: the acquire ran in Redis, its connection stays silent until it is
 * reset 1.5 s later. No body runs, and no orphan lock is kept for the 30 s lease: the key
 * is free again within 2 s of the cancellation, for an exclusive lock, a read lock and a
 * permit of {@link ReactiveLockClient#withLock}, and a {@code Mono} method with
 * {@code @DistributedLock}. The control does the same to a naive reactive
 * {@code SET NX PX}: the key stays for its lease.
 */
class ReactiveCancellationTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long STALL_MS = 1500;

	private static final long CANCEL_AFTER_MS = 300;

	private static final long REQUIRED_MS = 2000;

	private static RedisNode redis;

	private static FaultProxy proxy;

	private static ConfigurableApplicationContext proxied;

	private static ReactiveLockClient client;

	private static ReactiveJob job;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		proxy = FaultProxy.start(redis.port());
		proxied = FaultApplication.start(LockApps.properties(proxy.port(), "spring.data.redis.timeout=2s"),
				ReactiveJob.class);
		client = proxied.getBean(ReactiveLockClient.class);
		job = proxied.getBean(ReactiveJob.class);
		// Load the scripts, so that the faults hit EVALSHA calls that run.
		for (Kind kind : Kind.values()) {
			client.withLock("lock:warm-up:" + kind, kind.options(), Mono.just("warm")).block();
		}
	}

	@AfterAll
	static void stop() {
		proxied.close();
		proxy.close();
		redis.close();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void cancelledWhileTheAcquiresReplyIsLostLeavesNoLock(Kind kind) {
		String key = "lock:reactive-cancel:" + UUID.randomUUID();
		AtomicInteger bodies = new AtomicInteger();
		Cancelled run = cancelDuringStall(key,
				client.withLock(key, kind.options(), Mono.fromCallable(bodies::incrementAndGet)));
		Figures.record("reactive cancellation: withLock, " + kind,
				"acquire's reply lost, subscriber timed out after %d ms: %s; bodies run %d; key free %s after the "
						+ "cancellation (lease %d s)",
				CANCEL_AFTER_MS, run.outcome(), bodies.get(), run.describeFreed(), LEASE.toSeconds());
		assertThat(run.ranInRedis()).as("the acquire ran in Redis").isTrue();
		assertThat(run.failure()).isInstanceOf(TimeoutException.class);
		assertThat(bodies.get()).as("bodies run").isZero();
		assertThat(run.freedMs()).as("ms from the cancellation until the key was free").isBetween(0L, REQUIRED_MS);
	}

	@Test
	void cancelledLockedMonoMethodWhileTheAcquiresReplyIsLostLeavesNoLock() {
		String key = "lock:reactive-cancel-method:" + UUID.randomUUID();
		int before = job.bodies();
		Cancelled run = cancelDuringStall(key, job.run(key));
		Figures.record("reactive cancellation: @DistributedLock Mono method",
				"acquire's reply lost, subscriber timed out after %d ms: %s; bodies run %d; key free %s after the "
						+ "cancellation (lease %d s)",
				CANCEL_AFTER_MS, run.outcome(), job.bodies() - before, run.describeFreed(), LEASE.toSeconds());
		assertThat(run.ranInRedis()).as("the acquire ran in Redis").isTrue();
		assertThat(run.failure()).isInstanceOf(TimeoutException.class);
		assertThat(job.bodies() - before).as("bodies run").isZero();
		assertThat(run.freedMs()).as("ms from the cancellation until the key was free").isBetween(0L, REQUIRED_MS);
	}

	@Test
	void controlNaiveReactiveSetWhoseReplyIsLostKeepsTheKeyForItsLease() {
		String key = "lock:reactive-cancel-naive:" + UUID.randomUUID();
		ReactiveStringRedisTemplate template = new ReactiveStringRedisTemplate(
				proxied.getBean(ReactiveRedisConnectionFactory.class));
		Cancelled run = cancelDuringStall(key, template.opsForValue().setIfAbsent(key, "owner", LEASE));
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		Figures.record("reactive cancellation: control",
				"naive reactive SET NX PX %d, reply lost, subscriber timed out: key free %s after the cancellation; "
						+ "PTTL then %d ms",
				LEASE.toMillis(), run.describeFreed(), pttl);
		assertThat(run.ranInRedis()).as("the SET ran in Redis").isTrue();
		assertThat(run.freedMs()).isNegative();
	}

	private static Cancelled cancelDuringStall(String key, Mono<?> work) {
		ReplyDrop stall = proxy.stallNextReplyTo(key, STALL_MS);
		CompletableFuture<?> subscriber = work.timeout(Duration.ofMillis(CANCEL_AFTER_MS)).toFuture();
		// The acquire ran in Redis: its key is there while its reply is held back.
		boolean ranInRedis = stall.await(Duration.ofMillis(CANCEL_AFTER_MS)) && presentWithin(key, 100);
		Throwable failure = catchThrowable(subscriber::join);
		long cancelled = System.nanoTime();
		Throwable cause = (failure != null && failure.getCause() instanceof TimeoutException timeout) ? timeout
				: failure;
		long freed = freedAt(key, Duration.ofSeconds(5));
		return new Cancelled(cause, ranInRedis, (freed > 0) ? (freed - cancelled) / 1_000_000 : -1);
	}

	private static boolean presentWithin(String key, long millis) {
		long deadline = System.nanoTime() + millis * 1_000_000;
		do {
			Long exists = Resp.number(redis.port(), "EXISTS", key);
			if (exists != null && exists == 1) {
				return true;
			}
			Pause.millis(2);
		}
		while (System.nanoTime() - deadline < 0);
		return false;
	}

	/** Polls the key every 10 ms until it is gone (or holds no live member). */
	private static long freedAt(String key, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (System.nanoTime() - deadline < 0) {
			Long exists = Resp.number(redis.port(), "EXISTS", key);
			if (exists != null && exists == 0) {
				return System.nanoTime();
			}
			Pause.millis(10);
		}
		return -1;
	}

	private record Cancelled(Throwable failure, boolean ranInRedis, long freedMs) {

		String outcome() {
			return "acquire ran in Redis=" + this.ranInRedis + ", subscriber got "
					+ ((this.failure != null) ? this.failure.getClass().getSimpleName() : "no error");
		}

		String describeFreed() {
			return (this.freedMs >= 0) ? this.freedMs + " ms" : "not within 5 s";
		}

	}

	/** The kinds of lock tried. */
	enum Kind {

		EXCLUSIVE(LockMode.EXCLUSIVE, 1), READ(LockMode.READ, 1), PERMIT(LockMode.EXCLUSIVE, 2);

		private final LockMode mode;

		private final int permits;

		Kind(LockMode mode, int permits) {
			this.mode = mode;
			this.permits = permits;
		}

		LockOptions options() {
			return new LockOptions(Duration.ofSeconds(2), LEASE).withMode(this.mode).withPermits(this.permits);
		}

	}

}
