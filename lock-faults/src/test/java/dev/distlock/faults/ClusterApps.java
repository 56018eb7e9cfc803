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
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * {@link FaultApplication}s in the test JVM connected to a Redis Cluster through
 * {@code spring.data.redis.cluster.nodes}, as a Boot user configures one, each with a
 * {@link LockListener} that records the leases it lost; and keys whose slot a given
 * master serves.
 */
final class ClusterApps implements AutoCloseable {

	private final RedisClusterDeployment cluster;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	ClusterApps(RedisClusterDeployment cluster) {
		this.cluster = cluster;
	}

	/**
	 * Starts an application on the cluster.
	 * @param more further {@code name=value} properties
	 * @return its context
	 */
	ConfigurableApplicationContext start(String... more) {
		List<String> properties = new ArrayList<>(
				List.of("spring.data.redis.cluster.nodes=" + this.cluster.clusterNodes()));
		properties.addAll(List.of(more));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(FaultApplication.class,
				LeaseLostRecorder.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(properties.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return context;
	}

	static RedisLockClient client(ConfigurableApplicationContext context) {
		return (RedisLockClient) context.getBean(LockClient.class);
	}

	static List<String> leasesLost(ConfigurableApplicationContext context) {
		return context.getBean(LeaseLostRecorder.class).keys;
	}

	/**
	 * Finds keys (without the distlock prefix, which is empty) whose slot a master
	 * serves.
	 * @param master the master
	 * @param name what the keys are for, part of each key
	 * @param count how many
	 * @return the keys
	 */
	List<String> keysOn(RedisServerProcess master, String name, int count) {
		List<String> keys = new ArrayList<>();
		for (int i = 0; keys.size() < count; i++) {
			String key = "lock:" + name + ":" + i;
			if (this.cluster.masterOf(key).port() == master.port()) {
				keys.add(key);
			}
		}
		return keys;
	}

	/**
	 * Finds a key whose slot another master serves.
	 * @param master the master to avoid
	 * @param name what the key is for, part of it
	 * @return the key
	 */
	String keyNotOn(RedisServerProcess master, String name) {
		for (int i = 0;; i++) {
			String key = "lock:" + name + ":" + i;
			if (this.cluster.masterOf(key).port() != master.port()) {
				return key;
			}
		}
	}

	/**
	 * An original master that is still up and so still has its replica: each scenario
	 * kills another one.
	 * @return the master
	 */
	RedisServerProcess masterWithReplica() {
		return this.cluster.nodes()
			.subList(0, 3)
			.stream()
			.filter(RedisServerProcess::isRunning)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("Every original master was killed"));
	}

	@Override
	public void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	/** Records the keys of the leases lost, as listeners are told. */
	@Configuration(proxyBeanMethods = false)
	static class LeaseLostRecorder implements LockListener {

		final List<String> keys = new CopyOnWriteArrayList<>();

		@Override
		public void leaseLost(LockHandle handle) {
			this.keys.add(handle.key());
		}

	}

}
