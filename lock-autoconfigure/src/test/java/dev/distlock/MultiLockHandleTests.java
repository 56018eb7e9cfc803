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
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link MultiLockHandle} releases every key, in reverse lock order, even when releasing
 * one fails, and rethrows the first failure with the others suppressed.
 */
class MultiLockHandleTests {

	private final List<String> released = new ArrayList<>();

	private final List<String> extended = new ArrayList<>();

	@Test
	void releasesEveryKeyInReverseOrderAndRethrowsTheFirstFailure() {
		LockLeaseLostException lost = new LockLeaseLostException("c", Duration.ofSeconds(1), Duration.ofSeconds(2));
		LockUnavailableException unavailable = new LockUnavailableException("a", LockUnavailableException.RELEASE,
				new IllegalStateException("down"));
		MultiLockHandle handle = new MultiLockHandle(
				List.of(new Hold("a", 1, unavailable), new Hold("b", 2, null), new Hold("c", 3, lost)));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release)
			.isSameAs(lost)
			.satisfies((ex) -> assertThat(ex.getSuppressed()).containsExactly(unavailable));
		assertThat(this.released).containsExactly("c", "b", "a");
		assertThat(handle.isReleased()).isTrue();
		handle.release();
		assertThat(this.released).as("released once").hasSize(3);
	}

	@Test
	void extendsEveryKeyInLockOrderAndStopsAtTheFirstFailure() {
		MultiLockHandle handle = new MultiLockHandle(List.of(new Hold("a", 1, null), new Hold("b", 2, null)));
		handle.extend(Duration.ofSeconds(5));
		assertThat(this.extended).containsExactly("a", "b");
		this.extended.clear();
		LockLeaseLostException lost = new LockLeaseLostException("b", Duration.ofSeconds(1), Duration.ofSeconds(2));
		MultiLockHandle failing = new MultiLockHandle(
				List.of(new Hold("a", 1, null), new Hold("b", 2, lost), new Hold("c", 3, null)));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> failing.extend(Duration.ofSeconds(5)))
			.isSameAs(lost);
		assertThat(this.extended).containsExactly("a", "b");
		handle.release();
		this.extended.clear();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> handle.extend(Duration.ofSeconds(5)))
			.withMessageContaining("'a', 'b'")
			.withMessageContaining("already released");
		assertThat(this.extended).isEmpty();
	}

	@Test
	void answersForEachKeyAndForTheFirstInLockOrder() {
		MultiLockHandle handle = new MultiLockHandle(List.of(new Hold("a", 10, null), new Hold("b", 20, null)));
		assertThat(handle.keys()).containsExactly("a", "b");
		assertThat(handle.key()).isEqualTo("a");
		assertThat(handle.fencingToken()).isEqualTo(10);
		assertThat(handle.fencingToken("b")).isEqualTo(20);
		assertThatIllegalArgumentException().isThrownBy(() -> handle.fencingToken("c"))
			.withMessageContaining("'c' is not held by this handle, which holds 'a', 'b'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MultiLockHandle(List.of(new Hold("a", 1, null), new Hold("a", 2, null))));
	}

	@Test
	void singleKeyHandleAnswersForItsOwnKeyOnly() {
		LockHandle hold = new Hold("a", 7, null);
		assertThat(hold.keys()).containsExactly("a");
		assertThat(hold.fencingToken("a")).isEqualTo(7);
		assertThatIllegalArgumentException().isThrownBy(() -> hold.fencingToken("b"))
			.withMessageContaining("'b' is not held");
	}

	private final class Hold implements LockHandle {

		private final String key;

		private final long token;

		private final @Nullable RuntimeException failure;

		Hold(String key, long token, @Nullable RuntimeException failure) {
			this.key = key;
			this.token = token;
			this.failure = failure;
		}

		@Override
		public String key() {
			return this.key;
		}

		@Override
		public Duration leaseTime() {
			return Duration.ofSeconds(30);
		}

		@Override
		public boolean isAutoRenewing() {
			return false;
		}

		@Override
		public long fencingToken() {
			return this.token;
		}

		@Override
		public boolean isLeaseLost() {
			return this.failure instanceof LockLeaseLostException;
		}

		@Override
		public boolean isReleased() {
			return MultiLockHandleTests.this.released.contains(this.key);
		}

		@Override
		public void extend(Duration leaseTime) {
			MultiLockHandleTests.this.extended.add(this.key);
			if (this.failure != null) {
				throw this.failure;
			}
		}

		@Override
		public void release() {
			MultiLockHandleTests.this.released.add(this.key);
			if (this.failure != null) {
				throw this.failure;
			}
		}

	}

}
