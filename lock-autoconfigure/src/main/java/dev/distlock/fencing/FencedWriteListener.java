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

package dev.distlock.fencing;

/**
 * Told of every fenced write a store refused, before the writer gets the
 * {@link StaleFencingTokenException}; the auto-configuration registers one that counts
 * them in a Micrometer meter ({@code distlock.fencing.refused}).
 */
@FunctionalInterface
public interface FencedWriteListener {

	/** A listener that does nothing. */
	FencedWriteListener NONE = (refusal) -> {
	};

	/**
	 * Called when a store refused a fenced write.
	 * @param refusal the exception the writer is about to get
	 */
	void refused(StaleFencingTokenException refusal);

}
