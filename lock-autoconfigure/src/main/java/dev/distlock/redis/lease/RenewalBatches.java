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

package dev.distlock.redis.lease;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.redis.protocol.LockKeyspace;

/**
 * Splits the locks to renew into batches of at most {@link #MAX_BATCH} keys, one renewal
 * script call each. On a Redis Cluster every batch holds keys of a single hash slot, as a
 * script may only touch keys of one slot.
 */
final class RenewalBatches {

	/** The most keys renewed by one script call. */
	static final int MAX_BATCH = 100;

	private RenewalBatches() {
	}

	static <H extends RenewedHold> List<List<H>> of(Collection<H> handles, boolean bySlot) {
		if (!bySlot) {
			return chunks(new ArrayList<>(handles));
		}
		Map<Integer, List<H>> slots = new LinkedHashMap<>();
		for (H handle : handles) {
			slots.computeIfAbsent(LockKeyspace.slot(handle.key()), (slot) -> new ArrayList<>()).add(handle);
		}
		List<List<H>> batches = new ArrayList<>();
		slots.values().forEach((slot) -> batches.addAll(chunks(slot)));
		return batches;
	}

	private static <H> List<List<H>> chunks(List<H> handles) {
		List<List<H>> batches = new ArrayList<>();
		for (int from = 0; from < handles.size(); from += MAX_BATCH) {
			batches.add(handles.subList(from, Math.min(from + MAX_BATCH, handles.size())));
		}
		return batches;
	}

}
