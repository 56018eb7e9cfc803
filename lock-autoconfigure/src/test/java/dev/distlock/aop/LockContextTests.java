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
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link LockContext} inside {@link DistributedLock @DistributedLock} methods: the
 * innermost lock held by the thread and its fencing token, nothing outside locked
 * methods.
 */
class LockContextTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(Config.class);

	@Test
	void lockedMethodSeesTheHandleItHoldsAndItsFencingToken() {
		String id = TestRedis.uniqueKey("account");
		this.runner.run((context) -> {
			Seen seen = context.getBean(Accounts.class).debit(id);
			List<LockHandle> acquired = context.getBean(AcquiredHandles.class).handles();
			assertThat(acquired).singleElement().isSameAs(seen.handle());
			assertThat(seen.key()).isEqualTo("account:" + id);
			assertThat(seen.token()).isEqualTo(seen.handle().fencingToken()).isPositive();
		});
	}

	@Test
	void everyCallGetsAHigherFencingToken() {
		String id = TestRedis.uniqueKey("account");
		this.runner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			long first = accounts.debit(id).token();
			long second = accounts.debit(id).token();
			assertThat(second).isGreaterThan(first);
		});
	}

	@Test
	void nestedLockedMethodSeesItsOwnLockThenTheOuterOneAgain() {
		String outerId = TestRedis.uniqueKey("outer");
		String innerId = TestRedis.uniqueKey("inner");
		this.runner.run((context) -> {
			List<Seen> seen = context.getBean(Accounts.class).transfer(outerId, innerId);
			assertThat(seen).extracting(Seen::key)
				.containsExactly("account:" + outerId, "account:" + innerId, "account:" + outerId);
			assertThat(seen.get(1).token()).isEqualTo(seen.get(1).handle().fencingToken());
			assertThat(seen.get(2).handle()).isSameAs(seen.get(0).handle());
			assertThat(seen.get(2).token()).isEqualTo(seen.get(0).token());
			assertThat(LockContext.current()).isEmpty();
		});
	}

	@Test
	void reentrantCallOnTheSameKeySeesTheSameFencingToken() {
		String id = TestRedis.uniqueKey("account");
		this.runner.run((context) -> {
			List<Seen> seen = context.getBean(Accounts.class).transfer(id, id);
			assertThat(seen).extracting(Seen::key).containsOnly("account:" + id);
			assertThat(seen).extracting(Seen::token).containsOnly(seen.get(0).token());
		});
	}

	@Test
	void outsideLockedMethodsThereIsNoLock() {
		String id = TestRedis.uniqueKey("account");
		this.runner.run((context) -> {
			assertThat(LockContext.current()).isEmpty();
			assertThatIllegalStateException().isThrownBy(LockContext::fencingToken)
				.withMessageContaining("No distributed lock is held on this thread");
			Accounts accounts = context.getBean(Accounts.class);
			accounts.debit(id);
			assertThat(LockContext.current()).as("after a locked method returned").isEmpty();
			assertThatThrownBy(() -> accounts.failing(id)).isInstanceOf(IllegalArgumentException.class);
			assertThat(LockContext.current()).as("after a locked method threw").isEmpty();
			assertThatIllegalStateException().isThrownBy(LockContext::fencingToken);
		});
	}

	record Seen(String key, long token, LockHandle handle) {

		static Seen now() {
			LockHandle handle = LockContext.current().orElseThrow();
			return new Seen(handle.key(), LockContext.fencingToken(), handle);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		AcquiredHandles acquiredHandles() {
			return new AcquiredHandles();
		}

		@Bean
		Ledger ledger() {
			return new Ledger();
		}

		@Bean
		Accounts accounts(Ledger ledger) {
			return new Accounts(ledger);
		}

	}

	static class AcquiredHandles implements LockListener {

		private final List<LockHandle> handles = new CopyOnWriteArrayList<>();

		List<LockHandle> handles() {
			return this.handles;
		}

		@Override
		public void acquired(LockHandle handle, Duration waited) {
			this.handles.add(handle);
		}

	}

	static class Ledger {

		@DistributedLock(key = "'account:' + #id")
		public Seen credit(String id) {
			return Seen.now();
		}

	}

	static class Accounts {

		private final Ledger ledger;

		Accounts(Ledger ledger) {
			this.ledger = ledger;
		}

		@DistributedLock(key = "'account:' + #id")
		public Seen debit(String id) {
			return Seen.now();
		}

		@DistributedLock(key = "'account:' + #from")
		public List<Seen> transfer(String from, String to) {
			Seen before = Seen.now();
			Seen inner = this.ledger.credit(to);
			return List.of(before, inner, Seen.now());
		}

		@DistributedLock(key = "'account:' + #id")
		public void failing(String id) {
			throw new IllegalArgumentException("failed under lock " + LockContext.fencingToken());
		}

	}

}
