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

import java.util.Arrays;

/**
 * A growable array of the fields of the holds one worker thread records (a fixed number
 * per hold), kept in one array of primitives rather than an object per hold.
 */
final class HoldFields {

	private final int width;

	private long[] values;

	private int size;

	/**
	 * Creates an empty array.
	 * @param width the fields of one hold
	 */
	HoldFields(int width) {
		this.width = width;
		this.values = new long[1024 * width];
	}

	/**
	 * Adds one hold.
	 * @param fields its fields, as many as the width
	 */
	void add(long... fields) {
		if (fields.length != this.width) {
			throw new IllegalArgumentException("Expected " + this.width + " fields, got " + fields.length);
		}
		if (this.size + this.width > this.values.length) {
			this.values = Arrays.copyOf(this.values, this.values.length * 2);
		}
		System.arraycopy(fields, 0, this.values, this.size, this.width);
		this.size += this.width;
	}

	/**
	 * Returns the fields of every hold, one hold after the other.
	 * @return a copy of the fields
	 */
	long[] toArray() {
		return Arrays.copyOf(this.values, this.size);
	}

}
