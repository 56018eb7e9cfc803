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

import org.jspecify.annotations.Nullable;

/**
 * A lock script's reply, and how many replicas acknowledged its writes
 * ({@link AcknowledgedScript}).
 *
 * @param reply the reply, {@code null} if there was none
 * @param replicas how many replicas acknowledged, {@link #NOT_ASKED} if the script wrote
 * nothing to acknowledge
 */
record AcknowledgedReply<T>(@Nullable T reply, long replicas) {

	/** How many replicas acknowledged a script that wrote nothing to acknowledge. */
	static final long NOT_ASKED = -1;

	/**
	 * Returns whether the script wrote nothing to acknowledge, or enough replicas
	 * acknowledged it.
	 * @param required how many replicas must acknowledge
	 */
	boolean suffices(int required) {
		return this.replicas == NOT_ASKED || this.replicas >= required;
	}

}
