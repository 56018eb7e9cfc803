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

package dev.distlock.redis.protocol;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Owner tokens are 32 hexadecimal digits, never repeated within a client however many
 * threads make them, and start with random bits of their own in every client.
 */
class OwnerTokensTests {

	@Test
	void tokensOfOneClientAreAllDifferentAcrossThreads() {
		OwnerTokens tokens = new OwnerTokens();
		Set<String> made = ConcurrentHashMap.newKeySet();
		IntStream.range(0, 200_000).parallel().forEach((i) -> made.add(tokens.next()));
		assertThat(made).hasSize(200_000).allSatisfy((token) -> assertThat(token).matches("[0-9a-f]{32}"));
	}

	@Test
	void tokensOfDifferentClientsDiffer() {
		List<OwnerTokens> clients = IntStream.range(0, 1_000).mapToObj((i) -> new OwnerTokens()).toList();
		Set<String> first = new HashSet<>();
		Set<String> randomHalves = new HashSet<>();
		for (OwnerTokens client : clients) {
			String token = client.next();
			first.add(token);
			randomHalves.add(token.substring(0, 16));
		}
		assertThat(first).as("the first token of each client").hasSize(1_000);
		assertThat(randomHalves).as("the random half of each client").hasSize(1_000);
	}

}
