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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockFailureAction;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.MultiLockHandle;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.StartupFailures;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @DistributedLock(keys = ...)}: a transfer between two accounts locks both, all
 * or nothing, so that concurrent transfers in opposite directions in two instances keep
 * exact balances without deadlock; each key's fencing token is read from
 * {@link LockContext}; the failure policies apply unchanged; malformed uses fail at
 * startup.
 */
class MultiKeyAnnotationTests {

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	@Test
	void oppositeTransfersInTwoInstancesKeepExactBalances() throws Exception {
		String bank = TestRedis.uniqueKey("bank");
		HoldLog log = new HoldLog();
		int threads = 8;
		int transfers = 50;
		runner(log).run((first) -> runner(log).run((second) -> {
			Accounts[] instances = { first.getBean(Accounts.class), second.getBean(Accounts.class) };
			ConcurrentRunner.run(threads, transfers, (thread) -> {
				boolean forward = thread % 2 == 0;
				instances[(thread / 2) % 2].transfer(bank, forward ? "1" : "2", forward ? "2" : "1", 3);
			});
		}));
		assertThat(this.redis.opsForValue().get(bank + ":1")).isEqualTo("0");
		assertThat(this.redis.opsForValue().get(bank + ":2")).isEqualTo("0");
		log.assertSerial(threads * transfers);
	}

	@Test
	void eachKeysFencingTokenIsReadFromTheLockContext() {
		String bank = TestRedis.uniqueKey("bank");
		runner(new HoldLog()).run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			accounts.transfer(bank, "1", "2", 5);
			Map<String, Long> fences = accounts.fences();
			assertThat(fences).containsOnlyKeys("lock:" + bank + ":1", "lock:" + bank + ":2");
			assertThat(fences.values()).doesNotHaveDuplicates().allSatisfy((fence) -> assertThat(fence).isPositive());
			assertThat(accounts.heldKeys()).containsExactlyInAnyOrderElementsOf(fences.keySet());
		});
	}

	@Test
	void keyHeldElsewhereSkipsTheCallWithoutTakingTheOthers() {
		String bank = TestRedis.uniqueKey("bank");
		runner(new HoldLog()).run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			Accounts accounts = context.getBean(Accounts.class);
			try (LockHandle held = client.lock("lock:" + bank + ":2",
					new LockOptions(Duration.ZERO, Duration.ofSeconds(30)))) {
				boolean transferred = CompletableFuture.supplyAsync(() -> accounts.transferOrSkip(bank, "1", "2", 5))
					.join();
				assertThat(transferred).as("skipped: the method returns false instead of running").isFalse();
				assertThat(this.redis.hasKey("lock:" + bank + ":1")).isFalse();
			}
			assertThat(this.redis.opsForValue().get(bank + ":1")).isNull();
		});
	}

	@Test
	void keyYieldingNullFailsTheCallBeforeTheMethodRuns() {
		runner(new HoldLog()).run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			assertThatExceptionOfType(LockKeyExpressionException.class).isThrownBy(() -> accounts.touch("1", null))
				.withMessageContaining("#to")
				.withMessageContaining("yielded null");
			assertThat(accounts.touched()).isZero();
		});
	}

	static Stream<Arguments> invalidBeans() {
		return Stream.of(Arguments.of(KeyAndKeys.class, "it gives both key and keys"),
				Arguments.of(KeysOfReadLock.class,
						"keys locks several keys, which only exclusive locks can do, and mode = READ is given"),
				Arguments.of(KeysOfSemaphore.class, "permits = 3"),
				Arguments.of(KeysOfMono.class, "only for methods that do their work before they return"),
				Arguments.of(BlankKeyAmongKeys.class, "keys[1] is empty"),
				Arguments.of(MisspeltParameterAmongKeys.class, "uses #too"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidBeans")
	void invalidDefinitionFailsStartup(Class<?> beanClass, String problem) {
		LockTestContexts.withSharedRedis()
			.withBean(beanClass)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					beanClass.getName() + ".work(String, String)", problem));
	}

	private ApplicationContextRunner runner(HoldLog log) {
		return LockTestContexts.withSharedRedis()
			.withUserConfiguration(AccountsConfig.class)
			.withBean(HoldLog.class, () -> log);
	}

	@Configuration(proxyBeanMethods = false)
	static class AccountsConfig {

		@Bean
		Accounts accounts(StringRedisTemplate redis, ObjectProvider<HoldLog> log) {
			return new Accounts(redis, log.getObject());
		}

	}

	static class Accounts {

		private final StringRedisTemplate redis;

		private final HoldLog log;

		private final Map<String, Long> fences = new ConcurrentHashMap<>();

		private final AtomicInteger touched = new AtomicInteger();

		private volatile List<String> heldKeys = List.of();

		Accounts(StringRedisTemplate redis, HoldLog log) {
			this.redis = redis;
			this.log = log;
		}

		@DistributedLock(keys = { "'lock:' + #bank + ':' + #from", "'lock:' + #bank + ':' + #to" }, waitTime = "1m")
		public void transfer(String bank, String from, String to, long amount) {
			long start = System.nanoTime();
			add(bank + ":" + from, -amount);
			add(bank + ":" + to, amount);
			this.fences.put("lock:" + bank + ":" + from, LockContext.fencingToken("lock:" + bank + ":" + from));
			this.fences.put("lock:" + bank + ":" + to, LockContext.fencingToken("lock:" + bank + ":" + to));
			LockHandle current = LockContext.current().orElseThrow();
			assertThat(current).isInstanceOf(MultiLockHandle.class);
			this.heldKeys = current.keys();
			this.log.record(start, System.nanoTime());
		}

		@DistributedLock(keys = { "'lock:' + #bank + ':' + #from", "'lock:' + #bank + ':' + #to" }, waitTime = "0",
				onNotAcquired = LockFailureAction.SKIP)
		public boolean transferOrSkip(String bank, String from, String to, long amount) {
			add(bank + ":" + from, -amount);
			add(bank + ":" + to, amount);
			return true;
		}

		@DistributedLock(keys = { "#from", "#to" })
		public void touch(String from, String to) {
			this.touched.incrementAndGet();
		}

		int touched() {
			return this.touched.get();
		}

		/** A non-atomic read-modify-write: correct only under the locks. */
		private void add(String account, long amount) {
			String value = this.redis.opsForValue().get(account);
			long balance = (value != null) ? Long.parseLong(value) : 0;
			Thread.yield();
			this.redis.opsForValue().set(account, Long.toString(balance + amount));
		}

		Map<String, Long> fences() {
			return this.fences;
		}

		List<String> heldKeys() {
			return this.heldKeys;
		}

	}

	static class KeyAndKeys {

		@DistributedLock(key = "#from", keys = { "#from", "#to" })
		public void work(String from, String to) {
		}

	}

	static class KeysOfReadLock {

		@DistributedLock(keys = { "#from", "#to" }, mode = LockMode.READ)
		public void work(String from, String to) {
		}

	}

	static class KeysOfSemaphore {

		@DistributedLock(keys = { "#from", "#to" }, permits = 3)
		public void work(String from, String to) {
		}

	}

	static class KeysOfMono {

		@DistributedLock(keys = { "#from", "#to" })
		public Mono<String> work(String from, String to) {
			return Mono.just(from);
		}

	}

	static class BlankKeyAmongKeys {

		@DistributedLock(keys = { "#from", " " })
		public void work(String from, String to) {
		}

	}

	static class MisspeltParameterAmongKeys {

		@DistributedLock(keys = { "#from", "#too" })
		public void work(String from, String to) {
		}

	}

}
