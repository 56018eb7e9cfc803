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
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two extensions of one reactive hold in flight at once: to 3 s, then to 20 s. Redis runs
 * them in the order they reach it, which need not be the order of their send times (two
 * subscribing threads, or two connections when the native connection is not shared), and
 * their answers may be handled in yet another order. Here the first extension is written
 * only after the second ran, and its answer is handled first: Redis keeps the lock for
 * the first's 3 s. The holder must count its validity from the first, and know its lease
 * lost once Redis let the lock go. The build before counted the second's 20 s, as the
 * latest sent of the extensions answered: another owner took the lock while the holder
 * still held it by its own count.
 */
class OverlappingExtensionsTests {

	private static final Duration SHORTER = Duration.ofSeconds(3);

	private static final Duration LONGER = Duration.ofSeconds(20);

	/** Granted for less than the longer extension, so that it shows when that one ran. */
	private static final LockOptions FIXED = LockOptions.renewing(Duration.ofSeconds(10))
		.withLeaseTime(Duration.ofSeconds(10));

	private LockFixture fixture;

	private SteeredTemplate template;

	private ReactiveRedisLockClient reactive;

	private RedisLockCommands otherOwner;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), (builder) -> {
		});
		this.template = new SteeredTemplate(this.fixture);
		this.reactive = new ReactiveRedisLockClient(this.fixture.client, this.template);
		this.otherOwner = new RedisLockCommands(this.fixture.redis, LockFixture.KEYSPACE, new RedisReachability(), 1000,
				ReplicaAcknowledgement.NONE);
	}

	@AfterEach
	void stop() {
		this.template.releaseAll();
		this.fixture.close();
	}

	@Test
	void shorterExtensionThatRedisRunsLastBoundsTheValidityWhenItsAnswerIsHandledFirst() {
		String key = TestRedis.uniqueKey("overlapping-extensions");
		ReactiveLockHandle handle = this.reactive.lock(key, FIXED).block(Duration.ofSeconds(10));
		Sinks.Empty<Void> writeShorter = this.template.holdNextWrite();
		Sinks.Empty<Void> answerLonger = this.template.holdNextAnswer();
		Disposable shorter = handle.extend(SHORTER).subscribe();
		Disposable longer = handle.extend(LONGER).subscribe();
		// The longer extension, sent second, runs first; its answer is held.
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS) > LONGER.toMillis() - 1000);
		// The shorter runs last, and its answer is handled first.
		writeShorter.tryEmitEmpty();
		await().atMost(Duration.ofSeconds(5)).until(shorter::isDisposed);
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("the shorter ran last")
			.isLessThanOrEqualTo(SHORTER.toMillis());
		answerLonger.tryEmitEmpty();
		await().atMost(Duration.ofSeconds(5)).until(longer::isDisposed);
		await().atMost(SHORTER.plusSeconds(2))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> !this.fixture.redis.hasKey(key));
		assertThat(this.otherOwner.acquire(key, "other", 30_000, null, 0, 1, false).granted())
			.as("another owner takes the lock Redis let go")
			.isTrue();
		assertThat(handle.isLeaseLost()).as("the holder knows its lease ran out").isTrue();
	}

	/**
	 * The reactive template of the client: holds back the write of the next script call,
	 * or the answer of the one after it, until the test lets it go, as a thread preempted
	 * before its write or a slower connection would.
	 */
	private static final class SteeredTemplate extends ReactiveStringRedisTemplate {

		private final Queue<Step> steps = new ConcurrentLinkedQueue<>();

		private final Queue<Sinks.Empty<Void>> held = new ConcurrentLinkedQueue<>();

		SteeredTemplate(LockFixture fixture) {
			super(fixture.connectionFactory);
		}

		Sinks.Empty<Void> holdNextWrite() {
			return hold(true);
		}

		Sinks.Empty<Void> holdNextAnswer() {
			return hold(false);
		}

		private Sinks.Empty<Void> hold(boolean write) {
			Sinks.Empty<Void> release = Sinks.empty();
			this.steps.add(new Step(write, release));
			this.held.add(release);
			return release;
		}

		void releaseAll() {
			this.held.forEach(Sinks.Empty::tryEmitEmpty);
		}

		@Override
		public <T> Flux<T> execute(RedisScript<T> script, List<String> keys, List<?> args) {
			Flux<T> call = super.execute(script, keys, args);
			Step step = this.steps.poll();
			if (step == null) {
				return call;
			}
			return step.write() ? call.delaySubscription(step.release().asMono())
					: call.delayUntil((answer) -> step.release().asMono());
		}

		private record Step(boolean write, Sinks.Empty<Void> release) {
		}

	}

}
