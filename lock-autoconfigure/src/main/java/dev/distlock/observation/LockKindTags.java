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

package dev.distlock.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Tags;

import dev.distlock.LockKind;

/**
 * The tags of a {@link LockKind} on meters and observations: {@code kind}
 * ({@link LockKind#label()}) and {@code mode} ({@link LockKind#modeLabel()}), and
 * {@code permits} for a semaphore only. All three come from a small fixed set (the
 * permits from the code of the application), so they are low-cardinality tags.
 */
final class LockKindTags {

	/** Tag of the kind. */
	static final String KIND_TAG = LockObservationDocumentation.LowCardinalityKeyNames.KIND.asString();

	/** Tag of the mode. */
	static final String MODE_TAG = LockObservationDocumentation.LowCardinalityKeyNames.MODE.asString();

	/** Tag of the permits, only on the meters of a semaphore. */
	static final String PERMITS_TAG = LockObservationDocumentation.LowCardinalityKeyNames.PERMITS.asString();

	private LockKindTags() {
	}

	/**
	 * Returns the meter tags: {@code kind} and {@code mode}, and {@code permits} for a
	 * semaphore only, as the observations have them.
	 * @param kind the kind
	 * @return the tags
	 */
	static Tags tags(LockKind kind) {
		Tags tags = Tags.of(KIND_TAG, kind.label(), MODE_TAG, kind.modeLabel());
		return kind.isSemaphore() ? tags.and(PERMITS_TAG, Integer.toString(kind.permits())) : tags;
	}

	/**
	 * Returns the low-cardinality key values of an observation, the same as
	 * {@link #tags(LockKind)}.
	 * @param kind the kind
	 * @return the key values
	 */
	static KeyValues keyValues(LockKind kind) {
		KeyValues values = KeyValues.of(KIND_TAG, kind.label(), MODE_TAG, kind.modeLabel());
		return kind.isSemaphore() ? values.and(PERMITS_TAG, Integer.toString(kind.permits())) : values;
	}

}
