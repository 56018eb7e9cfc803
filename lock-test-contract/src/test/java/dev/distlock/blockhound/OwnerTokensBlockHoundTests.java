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

package dev.distlock.blockhound;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import dev.distlock.redis.protocol.OwnerTokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Owner tokens are made for every reactive acquisition, on whatever thread subscribes it:
 * a Lettuce event loop or Reactor's timer. Making one must not read a file (the
 * platform's default {@code SecureRandom} refills its buffer from {@code /dev/urandom}
 * when it is older than 100 milliseconds).
 */
class OwnerTokensBlockHoundTests {

	@AfterEach
	void noBlockingCalls() {
		assertThat(RecordedBlockingCalls.drain()).as("blocking calls on non-blocking threads").isEmpty();
	}

	@Test
	void tokensAreMadeOnANonBlockingThreadWithoutBlocking() {
		OwnerTokens tokens = new OwnerTokens();
		// Spaced beyond the 100 ms after which the default SecureRandom reads again.
		Flux<String> made = Flux.interval(Duration.ofMillis(150)).take(3).map((tick) -> tokens.next());
		StepVerifier.create(made.collectList())
			.assertNext((three) -> assertThat(three).doesNotHaveDuplicates()
				.allSatisfy((token) -> assertThat(token).hasSize(32)))
			.expectComplete()
			.verify(Duration.ofSeconds(10));
	}

}
