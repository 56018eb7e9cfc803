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

/**
 * One load of the reactive scenarios: operations spread round robin over a number of
 * keys, with a number of them in flight at once. With many more keys than operations in
 * flight no two operations wait for each other (uncontended); with fewer keys than
 * operations in flight each key has a queue of subscribers (contended).
 *
 * @param keys distinct lock keys
 * @param concurrency operations in flight at once ({@code flatMap} concurrency)
 */
record ReactiveLoad(int keys, int concurrency) {

	/**
	 * Tells whether operations wait for each other's locks.
	 * @return whether fewer keys than operations in flight
	 */
	boolean isContended() {
		return this.keys < this.concurrency;
	}

	/**
	 * Describes the load for the table headings.
	 * @return the description
	 */
	String describe() {
		return (isContended() ? "Contended: " : "Uncontended: ") + this.keys + " keys, " + this.concurrency
				+ " operation" + ((this.concurrency != 1) ? "s" : "") + " in flight";
	}

}
