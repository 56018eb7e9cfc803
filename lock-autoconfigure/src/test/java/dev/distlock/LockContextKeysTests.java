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

package dev.distlock;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.distlock.memory.InMemoryLockClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link LockContext#fencingToken(String)} answers from the innermost lock of the thread
 * that holds the key, and says clearly when none holds it.
 */
class LockContextKeysTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private final InMemoryLockClient client = InMemoryLockClient.builder().build();

	@Test
	void answersFromTheInnermostLockHoldingTheKey() {
		try (LockHandle outer = this.client.lock("outer", NO_WAIT);
				LockContext.Scope outerScope = LockContext.enter(outer);
				LockHandle both = this.client.lock(List.of("a", "b"), NO_WAIT);
				LockContext.Scope innerScope = LockContext.enter(both)) {
			assertThat(LockContext.fencingToken("a")).isEqualTo(both.fencingToken("a"));
			assertThat(LockContext.fencingToken("b")).isEqualTo(both.fencingToken("b"));
			assertThat(LockContext.fencingToken("outer")).isEqualTo(outer.fencingToken());
			assertThatIllegalArgumentException().isThrownBy(() -> LockContext.fencingToken("c"))
				.withMessageContaining("'c'")
				.withMessageContaining("'a', 'b', 'outer'");
		}
	}

	@Test
	void outsideALockedMethodItSaysSo() {
		assertThatIllegalStateException().isThrownBy(() -> LockContext.fencingToken("a"))
			.withMessageContaining("No distributed lock is held on this thread");
	}

}
