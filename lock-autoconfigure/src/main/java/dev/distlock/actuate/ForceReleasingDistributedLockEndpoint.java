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

package dev.distlock.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

import dev.distlock.redis.monitor.RedisLockMonitor;

/**
 * The {@code distlock} endpoint with a force-release operation ({@code DELETE
 * /actuator/distlock/{key}}), for when {@code distlock.endpoint.force-release.enabled} is
 * set. It releases only locks this instance holds: their holders keep running without the
 * lock and get a {@link dev.distlock.LockLeaseLostException} when they release.
 */
@Endpoint(id = "distlock")
public class ForceReleasingDistributedLockEndpoint extends DistributedLockEndpoint {

	/**
	 * Creates the endpoint.
	 * @param monitor the monitor of the lock client
	 */
	public ForceReleasingDistributedLockEndpoint(RedisLockMonitor monitor) {
		super(monitor);
	}

	/**
	 * Releases the locks this instance holds on a key; keys held by other instances are
	 * left alone.
	 * @param key the Redis key as the list shows it (with the configured key prefix)
	 * @return whether this instance held the key and released it
	 */
	@DeleteOperation
	public ReleaseDescriptor forceRelease(@Selector(match = Match.ALL_REMAINING) String... key) {
		String redisKey = String.join("/", key);
		return new ReleaseDescriptor(redisKey, monitor().forceRelease(redisKey));
	}

	/**
	 * The result of a force release.
	 *
	 * @param key the Redis key
	 * @param released whether this instance held the key and released it
	 */
	public record ReleaseDescriptor(String key, boolean released) implements OperationResponseBody {

	}

}
