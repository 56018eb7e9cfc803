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

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.DistributedLock;
import dev.distlock.LockMode;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.testing.StartupFailures;

/**
 * A key expression that one method locks among several keys (each an exclusive lock) and
 * another method locks as a read-write lock fails at startup. It did not while
 * {@code LockKeyKinds} registered a {@code keys} method under the text of all its
 * expressions together.
 */
class MultiKeyKindValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distlock.store=in-memory");

	@Test
	void keyLockedAmongSeveralKeysAndAsAReadLockFailsStartup() {
		this.contextRunner.withBean(MoveStock.class)
			.withBean(ReadSku.class)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					ReadSku.class.getName() + ".work(long)",
					"its key expression \"'lock:sku:' + #sku\" is locked as a read-write lock (mode = READ) here "
							+ "and as an exclusive lock by " + MoveStock.class.getName() + ".work(long)"));
	}

	static class MoveStock {

		@DistributedLock(keys = { "'lock:sku:' + #sku", "'lock:other:' + #sku" })
		public void work(long sku) {
		}

	}

	static class ReadSku {

		@DistributedLock(key = "'lock:sku:' + #sku", mode = LockMode.READ)
		public void work(long sku) {
		}

	}

}
