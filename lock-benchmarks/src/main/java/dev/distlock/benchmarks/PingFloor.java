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

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The floor: two synchronous round trips on the same Lettuce connection the Spring-based
 * contenders use, the limit for an acquire plus a release. Not a lock. On one server they
 * are {@code PING}s; on a cluster they are {@code EXISTS} of the key, which Lettuce
 * routes to the master of the key's slot as it routes the locks' scripts, since Spring
 * Data Redis sends a cluster connection's {@code PING} to every node.
 */
final class PingFloor implements Contender {

	static final String NAME = "floor: 2×PING";

	static final String CLUSTER_NAME = "floor: 2×EXISTS key";

	private static final String PREFIX = "floor: ";

	private static final RedisCallback<String> PING = (connection) -> connection.ping();

	private final StringRedisTemplate redis;

	private final boolean cluster;

	PingFloor(StringRedisTemplate redis, boolean cluster) {
		this.redis = redis;
		this.cluster = cluster;
	}

	/**
	 * Tells whether a contender name is the floor's, in either form.
	 * @param name the name shown in the tables
	 * @return whether it is the floor
	 */
	static boolean isFloor(String name) {
		return name.startsWith(PREFIX);
	}

	/**
	 * Returns what one floor pair does, for the text under the tables.
	 * @return {@code 2×PING} or {@code 2×EXISTS key}
	 */
	String pair() {
		return name().substring(PREFIX.length());
	}

	StringRedisTemplate redis() {
		return this.redis;
	}

	@Override
	public String name() {
		return this.cluster ? CLUSTER_NAME : NAME;
	}

	@Override
	public void runLocked(String key, Runnable section) {
		roundTrip(key);
		section.run();
		roundTrip(key);
	}

	private void roundTrip(String key) {
		if (this.cluster) {
			this.redis.hasKey(key);
		}
		else {
			this.redis.execute(PING);
		}
	}

}
