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

/**
 * What a {@link DistributedLock @DistributedLock} method does when its lock is not
 * acquired, or when Redis cannot be reached.
 */
public enum LockFailureAction {

	/**
	 * Throw the exception ({@link LockNotAcquiredException} or
	 * {@link LockUnavailableException}) to the caller.
	 */
	THROW,

	/**
	 * Do not invoke the method and return an empty value instead, by its declared return
	 * type: an empty {@code Optional} (and {@code OptionalInt}, {@code OptionalLong},
	 * {@code OptionalDouble}); an unmodifiable empty {@code Iterable},
	 * {@code Collection}, {@code List}, {@code Set}, {@code SortedSet},
	 * {@code NavigableSet}, {@code Map}, {@code SortedMap} or {@code NavigableMap}; a new
	 * empty instance of a concrete collection or map type such as {@code ArrayList}; an
	 * empty stream or array; {@code 0}, {@code false} or {@code '\0'} for primitives;
	 * {@code null} for {@code void} and anything else, including wrapper types such as
	 * {@code Integer} and {@code EnumSet}.
	 */
	SKIP,

	/**
	 * Invoke the {@link DistributedLock#fallbackMethod() fallback method} instead,
	 * without the lock.
	 */
	FALLBACK

}
