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

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The proxy and the Redis node the scenarios rely on do what they claim: each fault is
 * real.
 */
class FaultProxyTests {

	private static RedisNode redis;

	private static FaultProxy proxy;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.AOF_ALWAYS);
		proxy = FaultProxy.start(redis.port());
	}

	@AfterAll
	static void stop() {
		proxy.close();
		redis.close();
	}

	@Test
	void passesThroughAndDelays() {
		assertThat(Resp.call(proxy.port(), "SET", "k", "v")).isEqualTo("OK");
		proxy.delay(200);
		long start = System.nanoTime();
		assertThat(Resp.call(proxy.port(), "GET", "k")).isEqualTo("v");
		assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(400);
		proxy.passThrough();
	}

	@Test
	void blackholeDeliversNothingAndResetRefuses() {
		proxy.blackhole();
		assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> Resp.call(proxy.port(), "PING"));
		proxy.resetAll(true);
		assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> Resp.call(proxy.port(), "PING"));
		proxy.passThrough();
		assertThat(Resp.answers(proxy.port())).isTrue();
	}

	@Test
	void droppedReplyRanInRedisAndDroppedRequestDidNot() {
		ReplyDrop reply = proxy.dropNextReplyTo("dropped-reply");
		assertThatExceptionOfType(UncheckedIOException.class)
			.isThrownBy(() -> Resp.call(proxy.port(), "SET", "dropped-reply", "1"));
		assertThat(reply.await(Duration.ofSeconds(1))).isTrue();
		assertThat(Resp.call(redis.port(), "GET", "dropped-reply")).isEqualTo("1");
		proxy.dropNextRequest("dropped-request");
		assertThatExceptionOfType(UncheckedIOException.class)
			.isThrownBy(() -> Resp.call(proxy.port(), "SET", "dropped-request", "1"));
		assertThat(Resp.call(redis.port(), "GET", "dropped-request")).isNull();
	}

	@Test
	void heldRequestIsOvertakenByARequestOnAnotherConnection() throws Exception {
		ReplyDrop hold = proxy.holdNextRequest("held-request", 500);
		CompletableFuture<Object> held = CompletableFuture
			.supplyAsync(() -> Resp.call(proxy.port(), "SET", "held-request", "first"));
		assertThat(hold.await(Duration.ofSeconds(1))).isTrue();
		assertThat(Resp.call(proxy.port(), "SET", "held-request", "second", "NX")).isEqualTo("OK");
		assertThat(held.get(2, TimeUnit.SECONDS)).isEqualTo("OK");
		assertThat(Resp.call(redis.port(), "GET", "held-request")).isEqualTo("first");
	}

	@Test
	void heldRequestThatABlackholeSwallowsIsReportedLost() {
		ReplyDrop hold = proxy.holdNextRequest("held-then-swallowed", 300);
		CompletableFuture<Object> held = CompletableFuture
			.supplyAsync(() -> Resp.call(proxy.port(), "SET", "held-then-swallowed", "1"));
		assertThat(hold.await(Duration.ofSeconds(1))).isTrue();
		proxy.blackhole();
		try {
			assertThat(hold.awaitForwarded(Duration.ofSeconds(2))).as("when it was forwarded: 0 for lost").isZero();
			assertThatExceptionOfType(CompletionException.class).isThrownBy(held::join)
				.withCauseInstanceOf(UncheckedIOException.class);
		}
		finally {
			proxy.passThrough();
		}
		assertThat(Resp.call(redis.port(), "GET", "held-then-swallowed")).isNull();
	}

	@Test
	void appendOnlyNodeKeepsWritesAcrossKill() {
		Resp.call(redis.port(), "SET", "durable", "yes");
		redis.kill();
		assertThat(Resp.answers(redis.port())).isFalse();
		redis.restart();
		assertThat(Resp.call(redis.port(), "GET", "durable")).isEqualTo("yes");
	}

}
