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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.distlock.redlock.RedLockClient;

/**
 * Health of the RedLock nodes ({@code distlock.store=redlock}): each node, by its
 * property and server, {@code UP} if it answered a PING within the timeout, else
 * {@code DOWN}; the indicator is {@code UP} while a majority of the nodes answers, since
 * locks are granted then, and {@code DOWN} otherwise. The nodes whose grants do not count
 * yet because they restarted recently ({@link RedLockClient#quarantinedNodes()}) are
 * listed as {@code quarantined}; they do not change the status.
 */
public class RedLockHealthIndicator implements HealthIndicator {

	private final RedLockClient client;

	private final Duration timeout;

	/**
	 * Creates the indicator.
	 * @param client the RedLock client whose nodes are checked
	 * @param timeout how long to wait for each node
	 */
	public RedLockHealthIndicator(RedLockClient client, Duration timeout) {
		this.client = client;
		this.timeout = timeout;
	}

	@Override
	public Health health() {
		Map<String, Boolean> answered = this.client.pingNodes(this.timeout);
		Map<String, String> nodes = new LinkedHashMap<>();
		answered.forEach((node, up) -> nodes.put(node, up ? "UP" : "DOWN"));
		long answering = answered.values().stream().filter(Boolean::booleanValue).count();
		int majority = answered.size() / 2 + 1;
		Health.Builder builder = (answering >= majority) ? Health.up() : Health.down();
		return builder.withDetail("nodes", nodes)
			.withDetail("answering", answering)
			.withDetail("majority", majority)
			.withDetail("quarantined", this.client.quarantinedNodes())
			.build();
	}

}
