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

package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

import dev.distlock.LockOptions;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * Independent {@code redis-server} processes on free ports, as the nodes of RedLock
 * clients under test, and clients on them; closes all of them.
 */
final class RedLockNodes implements AutoCloseable {

	private final List<RedisServerProcess> servers = new ArrayList<>();

	private final List<RedLockClient> clients = new ArrayList<>();

	RedLockNodes(int count) {
		for (int i = 0; i < count; i++) {
			this.servers.add(RedisServerProcess.startOnFreePort());
		}
	}

	RedisServerProcess server(int index) {
		return this.servers.get(index);
	}

	List<String> urls() {
		return this.servers.stream().map((server) -> "redis://" + server.host() + ":" + server.port()).toList();
	}

	/** A client on every node, as another instance of the application would have. */
	RedLockClient client(Duration nodeTimeout, Duration renewalLease) {
		return client(nodeTimeout, renewalLease, UnaryOperator.identity());
	}

	/**
	 * A client on every node, as another instance of the application would have, built
	 * with further settings.
	 */
	RedLockClient client(Duration nodeTimeout, Duration renewalLease, UnaryOperator<RedLockClient.Builder> settings) {
		RedLockClient client = settings
			.apply(RedLockClient.builder(urls())
				.defaultOptions(LockOptions.renewing(Duration.ofSeconds(5)))
				.nodeTimeout(nodeTimeout)
				.renewalLease(renewalLease))
			.build();
		this.clients.add(client);
		client.checkNodes(Duration.ofSeconds(5));
		awaitCounted(client);
		return client;
	}

	/**
	 * Restarts nodes that were crashed or stopped, empty, and waits until every client is
	 * connected to every node again.
	 */
	void restart(RedisServerProcess... nodes) {
		for (RedisServerProcess node : nodes) {
			node.start();
		}
		awaitConnected();
	}

	/**
	 * Waits until the client counts every node's grants: fresh nodes count only once they
	 * have been up for the client's longest lease (unless it was built with
	 * {@code appendfsyncAlways}).
	 */
	static void awaitCounted(RedLockClient client) {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!client.quarantinedNodes().isEmpty()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Nodes still quarantined after 30s: " + client.quarantinedNodes());
			}
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
		}
	}

	/** Waits until every client's connections to every node answer. */
	void awaitConnected() {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		for (RedLockClient client : this.clients) {
			while (client.pingNodes(Duration.ofMillis(200)).containsValue(false)) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException(
							"Not every node answers after 10s: " + client.pingNodes(Duration.ofMillis(200)));
				}
				LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
			}
		}
	}

	@Override
	public void close() {
		this.clients.forEach(RedLockClient::close);
		this.servers.forEach(RedisServerProcess::close);
	}

}
