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

import java.util.Arrays;
import java.util.List;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The Redis a run measures: one server by its URL, or a Redis Cluster by its nodes. Every
 * process of a run (the harness and its forked workers) connects to it the same way, so
 * it travels to the forked JVMs as one argument ({@link #argument()}).
 *
 * @param cluster whether it is a cluster
 * @param address the server's URL ({@code redis://host:port}), or the cluster's nodes as
 * {@code host:port} separated by commas
 */
record RedisTarget(boolean cluster, String address) {

	private static final String CLUSTER_PREFIX = "cluster:";

	static RedisTarget server(String redisUrl) {
		return new RedisTarget(false, redisUrl);
	}

	static RedisTarget cluster(String nodes) {
		return new RedisTarget(true, nodes);
	}

	/**
	 * Reads the form {@link #argument()} writes.
	 * @param argument a server URL, or {@code cluster:} and the nodes
	 * @return the target
	 */
	static RedisTarget parse(String argument) {
		return argument.startsWith(CLUSTER_PREFIX) ? cluster(argument.substring(CLUSTER_PREFIX.length()))
				: server(argument);
	}

	/**
	 * Returns the target as one command-line argument for a forked JVM.
	 * @return the server URL, or {@code cluster:} and the nodes
	 */
	String argument() {
		return this.cluster ? CLUSTER_PREFIX + this.address : this.address;
	}

	/**
	 * Returns the Spring Boot property that points Boot's Redis auto-configuration at the
	 * target: with {@code spring.data.redis.cluster.nodes} Boot creates a cluster-aware
	 * Lettuce connection factory, which distlock's auto-configuration detects.
	 * @return the property as {@code name=value}
	 */
	String springProperty() {
		return (this.cluster ? "spring.data.redis.cluster.nodes=" : "spring.data.redis.url=") + this.address;
	}

	/**
	 * Creates a Redisson client for the target, with Redisson's defaults otherwise:
	 * {@code useSingleServer()} or {@code useClusterServers()}.
	 * @return the client
	 */
	RedissonClient redisson() {
		Config config = new Config();
		if (this.cluster) {
			config.useClusterServers()
				.addNodeAddress(nodes().stream().map((node) -> "redis://" + node).toArray(String[]::new));
		}
		else {
			config.useSingleServer().setAddress(this.address);
		}
		return Redisson.create(config);
	}

	private List<String> nodes() {
		return Arrays.asList(this.address.split(","));
	}

}
