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

import java.time.DayOfWeek;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.NavigableMap;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.stream.IntStream;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The empty values of the return types that the real-Redis skip tests do not cover.
 */
class SkipValuesTests {

	@Test
	void primitivesGetTheirDefaultOfTheExactWrapperType() {
		assertThat(SkipValues.emptyValueOf(byte.class)).isEqualTo((byte) 0);
		assertThat(SkipValues.emptyValueOf(short.class)).isEqualTo((short) 0);
		assertThat(SkipValues.emptyValueOf(float.class)).isEqualTo(0f);
		assertThat(SkipValues.emptyValueOf(double.class)).isEqualTo(0d);
		assertThat(SkipValues.emptyValueOf(void.class)).isNull();
		assertThat(SkipValues.emptyValueOf(Void.class)).isNull();
		assertThat(SkipValues.emptyValueOf(Long.class)).isNull();
	}

	@Test
	void primitiveOptionalsAndStreamsAreEmpty() {
		assertThat(SkipValues.emptyValueOf(OptionalInt.class)).isEqualTo(OptionalInt.empty());
		assertThat(SkipValues.emptyValueOf(OptionalLong.class)).isEqualTo(OptionalLong.empty());
		assertThat(SkipValues.emptyValueOf(OptionalDouble.class)).isEqualTo(OptionalDouble.empty());
		assertThat(((IntStream) SkipValues.emptyValueOf(IntStream.class)).count()).isZero();
	}

	@Test
	void collectionTypesGetAnEmptyInstanceOfTheirOwnType() {
		assertThat(SkipValues.emptyValueOf(Collection.class)).asInstanceOf(InstanceOfAssertFactories.COLLECTION)
			.isEmpty();
		assertThat(SkipValues.emptyValueOf(SortedSet.class)).isInstanceOf(SortedSet.class).asString().isEqualTo("[]");
		assertThat(SkipValues.emptyValueOf(NavigableMap.class)).isInstanceOf(NavigableMap.class);
		assertThat(SkipValues.emptyValueOf(ArrayDeque.class)).isInstanceOf(ArrayDeque.class).asString().isEqualTo("[]");
		assertThat(SkipValues.emptyValueOf(LinkedHashMap.class)).isInstanceOf(LinkedHashMap.class);
		assertThat(SkipValues.emptyValueOf(int[].class)).isEqualTo(new int[0]);
	}

	@Test
	void typesThatCannotBeCreatedEmptyGetNull() {
		assertThat(SkipValues.emptyValueOf(EnumSet.class)).as("needs an element type").isNull();
		assertThat(SkipValues.emptyValueOf(DayOfWeek.class)).isNull();
		assertThat(SkipValues.emptyValueOf(CharSequence.class)).isNull();
	}

}
