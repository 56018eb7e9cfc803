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

package dev.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of contenders in one round of blocks: the table order rotated by the round
 * number, so that every contender runs early and late in a round and machine drift hits
 * all of them.
 */
final class Rotation {

	private Rotation() {
	}

	static <T> List<T> forRound(List<T> items, int round) {
		List<T> rotated = new ArrayList<>(items.size());
		for (int i = 0; i < items.size(); i++) {
			rotated.add(items.get((i + round) % items.size()));
		}
		return rotated;
	}

}
