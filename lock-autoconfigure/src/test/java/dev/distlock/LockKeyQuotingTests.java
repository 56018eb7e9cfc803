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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys in messages and logs cannot forge lines or flood them.
 */
class LockKeyQuotingTests {

	@Test
	void plainKeysAreQuotedAsTheyAre() {
		assertThat(LockKeyQuoting.quote("lock:sku:25")).isEqualTo("'lock:sku:25'");
	}

	@Test
	void lineBreaksQuotesAndControlCharactersAreEscaped() {
		assertThat(LockKeyQuoting.quote("a\r\nWARN forged line\t'x'\\\u0000\u2028"))
			.isEqualTo("'a\\r\\nWARN forged line\\t\\'x\\'\\\\\\u0000\\u2028'")
			.doesNotContain("\n", "\r", "\u2028");
	}

	@Test
	void longKeysAreCutWithTheirLength() {
		String quoted = LockKeyQuoting.quote("k".repeat(1024 * 1024));
		assertThat(quoted).isEqualTo("'" + "k".repeat(LockKeyQuoting.MAX_QUOTED) + "'... (1048576 characters)");
	}

	@Test
	void exceptionsQuoteTheirKey() {
		String forged = "sku:1\nERROR something else happened";
		assertThat(new LockNotAcquiredException(forged, Duration.ZERO, Duration.ZERO).getMessage())
			.startsWith("Lock 'sku:1\\nERROR something else happened' was not acquired")
			.doesNotContain("\n");
		assertThat(new LockLeaseLostException(forged, Duration.ofSeconds(1), Duration.ofSeconds(2)).getMessage())
			.doesNotContain("\n");
	}

}
