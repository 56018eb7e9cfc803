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

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * One short hash tag per Redis Cluster slot, so that a lock's own keys can be put in the
 * lock's slot: found once, on first use, by trying "0", "1", "2", ... in base 36 until
 * every slot has one.
 */
final class ClusterSlotTags {

	private static final String[] TAGS = new String[ClusterSlotHashUtil.SLOT_COUNT];

	static {
		int found = 0;
		for (int i = 0; found < TAGS.length; i++) {
			String tag = Integer.toString(i, 36);
			int slot = ClusterSlotHashUtil.calculateSlot(tag);
			if (TAGS[slot] == null) {
				TAGS[slot] = tag;
				found++;
			}
		}
	}

	private ClusterSlotTags() {
	}

	/**
	 * Returns the hash tag of a slot.
	 * @param slot the slot, 0 to 16383
	 * @return a tag whose keys fall into that slot
	 */
	static String tagOf(int slot) {
		return TAGS[slot];
	}

}
