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

package dev.distlock.faults;

import java.util.ArrayList;
import java.util.List;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.RedisLockClient;

/**
 * Starts {@link FaultApplication} in the test JVM, connected to a Redis port (direct or
 * through a proxy), and closes every context it started.
 */
final class LockApps implements AutoCloseable {

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	/**
	 * The properties of an application on the given port.
	 * @param port the Redis (or proxy) port
	 * @param more further {@code name=value} properties
	 * @return the properties
	 */
	static List<String> properties(int port, String... more) {
		List<String> properties = new ArrayList<>(
				List.of("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port));
		properties.addAll(List.of(more));
		return properties;
	}

	ConfigurableApplicationContext start(int port, String... more) {
		ConfigurableApplicationContext context = FaultApplication.start(properties(port, more));
		this.contexts.add(context);
		return context;
	}

	/**
	 * Starts an application on a Sentinel deployment, configured as a Spring Boot user
	 * configures one: the master name and the Sentinels, Lettuce's defaults otherwise;
	 * with a {@link LeaseLostRecorder} bean.
	 * @param masterName the master name
	 * @param sentinelNodes the Sentinels, {@code host:port} comma-separated
	 * @param more further {@code name=value} properties
	 * @return the running context
	 */
	ConfigurableApplicationContext startOnSentinel(String masterName, String sentinelNodes, String... more) {
		List<String> properties = new ArrayList<>(List.of("spring.data.redis.sentinel.master=" + masterName,
				"spring.data.redis.sentinel.nodes=" + sentinelNodes));
		properties.addAll(List.of(more));
		ConfigurableApplicationContext context = FaultApplication.start(properties, LeaseLostRecorder.class);
		this.contexts.add(context);
		return context;
	}

	LockClient client(int port, String... more) {
		return start(port, more).getBean(LockClient.class);
	}

	/**
	 * Returns the reactive lock client of the application started last.
	 * @return its {@link ReactiveLockClient}
	 */
	ReactiveLockClient reactiveClient() {
		return this.contexts.get(this.contexts.size() - 1).getBean(ReactiveLockClient.class);
	}

	/**
	 * Loads every lock script into the client's Redis ({@code SCRIPT LOAD} of those it
	 * lacks), so that faults hit {@code EVALSHA} calls that run, not ones Redis answers
	 * {@code NOSCRIPT}: a warm-up lock and release runs only the scripts its path needs
	 * (a release nobody waits for, for example, runs {@code delete-if-equal.lua}, not
	 * {@code release.lua}).
	 * @param client a client of a Redis store
	 */
	static void loadScripts(LockClient client) {
		((RedisLockClient) client).monitor().checkScripts();
	}

	@Override
	public void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

}
