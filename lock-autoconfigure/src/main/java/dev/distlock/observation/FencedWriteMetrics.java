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

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.distlock.fencing.FencedWriteListener;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Counts the fenced writes that stores refused, in the counter {@value #REFUSED}, tagged
 * with the logical {@code name} of the lock the write was made under and the
 * {@code store} that refused it ({@code jdbc}, {@code redis}).
 */
public class FencedWriteMetrics implements FencedWriteListener {

	/** Name of the counter of refused fenced writes. */
	public static final String REFUSED = "distlock.fencing.refused";

	private final MeterRegistry registry;

	/**
	 * Creates the meters in a registry.
	 * @param registry the registry to count in
	 */
	public FencedWriteMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void refused(StaleFencingTokenException refusal) {
		Counter.builder(REFUSED)
			.description("Fenced writes refused because a later holder of the lock had written")
			.tag(LockMetrics.NAME, refusal.getLockName())
			.tag("store", refusal.getStore())
			.register(this.registry)
			.increment();
	}

}
