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

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.DistributedLock;
import dev.distlock.LockMode;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.testing.StartupFailures;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link DistributedLock#mode() mode} and {@link DistributedLock#permits() permits}
 * of {@link DistributedLock @DistributedLock} are checked at startup: on one method
 * (permits below one, permits with a read or write mode, a shared kind over several
 * keys), and across methods that lock the same key expression (different permits, or an
 * exclusive and a shared use), with a message naming the method, the attribute and what
 * to do. Runs on the in-memory store: the checks ask no lock client.
 */
class LockKindValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distlock.store=in-memory", "sku.key='lock:sku:' + #sku");

	static Stream<Arguments> invalidBeans() {
		return Stream.of(
				Arguments.of(ZeroPermits.class,
						"permits = 0 is less than 1. Set permits to 1 for a lock, or to the "
								+ "number of holders allowed at once for a semaphore, such as permits = 5."),
				Arguments.of(NegativePermits.class, "permits = -2 is less than 1."),
				Arguments.of(PermitsWithReadMode.class,
						"permits = 5 is given with mode = READ, and a semaphore has no read or write side. Use either "
								+ "permits (a semaphore: at most that many holders at once) or mode = READ or WRITE "
								+ "(a read-write lock), not both."),
				Arguments.of(PermitsWithWriteMode.class, "permits = 2 is given with mode = WRITE"),
				Arguments.of(SeveralKeysRead.class,
						"keys locks several keys, which only exclusive locks can do, and mode = READ is given. Lock "
								+ "one key (key = ...) with mode = READ, or remove mode and permits"),
				Arguments.of(SeveralKeysWithPermits.class,
						"keys locks several keys, which only exclusive locks can do, and permits = 3 is given"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidBeans")
	void invalidKindFailsStartup(Class<?> beanClass, String problem) {
		this.contextRunner.withBean(beanClass)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context, beanClass.getName() + ".work(long)",
					problem));
	}

	@Test
	void sameKeyWithDifferentPermitsFailsStartupNamingBothMethodsAndBothValues() {
		this.contextRunner.withBean(ThreePermits.class)
			.withBean(FivePermits.class)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					FivePermits.class.getName() + ".work(long)",
					"its key expression \"'lock:partner:' + #sku\" is locked with permits = 5 here and with "
							+ "permits = 3 by " + ThreePermits.class.getName() + ".work(long). Every method that "
							+ "locks a key must give the same permits"));
	}

	@Test
	void sameKeyExclusiveAndReadFailsStartup() {
		this.contextRunner.withBean(ExclusiveSku.class)
			.withBean(ReadSku.class)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					ReadSku.class.getName() + ".work(long)",
					"its key expression \"'lock:sku:' + #sku\" is locked as a read-write lock (mode = READ) here "
							+ "and as an exclusive lock by " + ExclusiveSku.class.getName() + ".work(long). Redis "
							+ "keeps exclusive locks, read-write locks and semaphores in different structures"));
	}

	@Test
	void sameKeyAsPlaceholderAndTextWithPermitsAndWriteFailsStartup() {
		this.contextRunner.withBean(PlaceholderThreePermits.class)
			.withBean(WriteSku.class)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					WriteSku.class.getName() + ".work(long)",
					"is locked as a read-write lock (mode = WRITE) here and as a semaphore of 3 permits "
							+ "(permits = 3) by " + PlaceholderThreePermits.class.getName() + ".work(long)"));
	}

	@Test
	void sameKeyReadAndWriteAndSamePermitsStart() {
		this.contextRunner.withBean(ReadSku.class)
			.withBean(WriteSku.class)
			.withBean(ThreePermits.class)
			.withBean(OtherThreePermits.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	static class ZeroPermits {

		@DistributedLock(key = "'lock:sku:' + #sku", permits = 0)
		public void work(long sku) {
		}

	}

	static class NegativePermits {

		@DistributedLock(key = "'lock:sku:' + #sku", permits = -2)
		public void work(long sku) {
		}

	}

	static class PermitsWithReadMode {

		@DistributedLock(key = "'lock:sku:' + #sku", permits = 5, mode = LockMode.READ)
		public void work(long sku) {
		}

	}

	static class PermitsWithWriteMode {

		@DistributedLock(key = "'lock:sku:' + #sku", permits = 2, mode = LockMode.WRITE)
		public void work(long sku) {
		}

	}

	static class SeveralKeysRead {

		@DistributedLock(keys = { "'a:' + #sku", "'b:' + #sku" }, mode = LockMode.READ)
		public void work(long sku) {
		}

	}

	static class SeveralKeysWithPermits {

		@DistributedLock(keys = { "'a:' + #sku", "'b:' + #sku" }, permits = 3)
		public void work(long sku) {
		}

	}

	static class ThreePermits {

		@DistributedLock(key = "'lock:partner:' + #sku", permits = 3)
		public void work(long sku) {
		}

	}

	static class OtherThreePermits {

		@DistributedLock(key = " 'lock:partner:' + #sku ", permits = 3)
		public void work(long sku) {
		}

	}

	static class FivePermits {

		@DistributedLock(key = "'lock:partner:' + #sku", permits = 5)
		public void work(long sku) {
		}

	}

	static class ExclusiveSku {

		@DistributedLock(key = "'lock:sku:' + #sku")
		public void work(long sku) {
		}

	}

	static class ReadSku {

		@DistributedLock(key = "'lock:sku:' + #sku", mode = LockMode.READ)
		public void work(long sku) {
		}

	}

	static class WriteSku {

		@DistributedLock(key = "'lock:sku:' + #sku", mode = LockMode.WRITE)
		public void work(long sku) {
		}

	}

	static class PlaceholderThreePermits {

		@DistributedLock(key = "${sku.key}", permits = 3)
		public void work(long sku) {
		}

	}

}
