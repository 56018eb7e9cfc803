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

package dev.distlock.faults;

/**
 * Checks fencing tokens in the order they were granted: each must exceed every earlier
 * one.
 */
public final class TokenOrder {

	private TokenOrder() {
	}

	/**
	 * Counts tokens that are not greater than the largest token granted before them.
	 * @param tokensInGrantOrder the tokens, in the order of their grants
	 * @return how many broke the order
	 */
	public static int notGreaterThanEarlier(long... tokensInGrantOrder) {
		int broken = 0;
		long max = Long.MIN_VALUE;
		for (int i = 0; i < tokensInGrantOrder.length; i++) {
			if (i > 0 && tokensInGrantOrder[i] <= max) {
				broken++;
			}
			max = Math.max(max, tokensInGrantOrder[i]);
		}
		return broken;
	}

}
