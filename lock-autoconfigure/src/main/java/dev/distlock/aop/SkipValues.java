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

package dev.distlock.aop;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.core.CollectionFactory;

/**
 * The values a {@link dev.distlock.LockFailureAction#SKIP skipped} method returns instead
 * of running, by its declared return type:
 * <ul>
 * <li>{@code Optional}, {@code OptionalInt}, {@code OptionalLong},
 * {@code OptionalDouble}: empty;</li>
 * <li>{@code Iterable}, {@code Collection}, {@code List}, {@code Set}, {@code SortedSet},
 * {@code NavigableSet}, {@code Map}, {@code SortedMap}, {@code NavigableMap}: an
 * unmodifiable empty one;</li>
 * <li>other collection and map types that Spring's {@link CollectionFactory} can create,
 * such as {@code ArrayList} or {@code TreeMap}: a new empty instance;</li>
 * <li>{@code Stream}, {@code IntStream}, {@code LongStream}, {@code DoubleStream}: an
 * empty stream;</li>
 * <li>arrays: an empty array of the component type;</li>
 * <li>primitives: {@code 0}, {@code false} or {@code '\0'};</li>
 * <li>{@code void} and anything else, including wrapper types such as {@code Integer} and
 * collections that cannot be created such as {@code EnumSet}: {@code null}.</li>
 * </ul>
 */
final class SkipValues {

	private static final Map<Class<?>, Object> EMPTY_VALUES = Map.ofEntries(Map.entry(boolean.class, false),
			Map.entry(char.class, '\0'), Map.entry(byte.class, (byte) 0), Map.entry(short.class, (short) 0),
			Map.entry(int.class, 0), Map.entry(long.class, 0L), Map.entry(float.class, 0f), Map.entry(double.class, 0d),
			Map.entry(Optional.class, Optional.empty()), Map.entry(OptionalInt.class, OptionalInt.empty()),
			Map.entry(OptionalLong.class, OptionalLong.empty()),
			Map.entry(OptionalDouble.class, OptionalDouble.empty()), Map.entry(Iterable.class, List.of()),
			Map.entry(Collection.class, List.of()), Map.entry(List.class, List.of()), Map.entry(Set.class, Set.of()),
			Map.entry(SortedSet.class, Collections.emptyNavigableSet()),
			Map.entry(NavigableSet.class, Collections.emptyNavigableSet()), Map.entry(Map.class, Map.of()),
			Map.entry(SortedMap.class, Collections.emptyNavigableMap()),
			Map.entry(NavigableMap.class, Collections.emptyNavigableMap()));

	private SkipValues() {
	}

	/**
	 * Returns the value a skipped method of the given return type returns.
	 * @param returnType the method's declared return type
	 * @return the empty value, or {@code null}
	 */
	static @Nullable Object emptyValueOf(Class<?> returnType) {
		Object empty = EMPTY_VALUES.get(returnType);
		if (empty != null) {
			return empty;
		}
		if (returnType.isArray()) {
			return Array.newInstance(returnType.getComponentType(), 0);
		}
		try {
			if (Collection.class.isAssignableFrom(returnType)) {
				return CollectionFactory.createCollection(returnType, 0);
			}
			if (Map.class.isAssignableFrom(returnType)) {
				return CollectionFactory.createMap(returnType, 0);
			}
		}
		catch (IllegalArgumentException ex) {
			return null; // no way to create one, such as EnumSet or an abstract class
		}
		return emptyStream(returnType);
	}

	private static @Nullable Object emptyStream(Class<?> returnType) {
		if (returnType == Stream.class) {
			return Stream.empty();
		}
		if (returnType == IntStream.class) {
			return IntStream.empty();
		}
		if (returnType == LongStream.class) {
			return LongStream.empty();
		}
		if (returnType == DoubleStream.class) {
			return DoubleStream.empty();
		}
		return null;
	}

}
