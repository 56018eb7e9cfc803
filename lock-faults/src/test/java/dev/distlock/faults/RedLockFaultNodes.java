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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.redlock.RedLockClient;

/**
 * The nodes of RedLock scenarios: independent {@link RedisNode} processes without
 * persistence (a restart comes back empty), optionally one of them behind a
 * {@link FaultProxy}; RedLock clients on them (as other instances of an application would
 * have), and the properties of a worker JVM or an application with
 * {@code distlock.store=redlock} on them. Closes everything it started.
 */
final class RedLockFaultNodes implements AutoCloseable {

	private final List<RedisNode> nodes = new ArrayList<>();

	private final List<RedLockClient> clients = new ArrayList<>();

	private final List<FaultProxy> proxies = new ArrayList<>();

	private RedLockFaultNodes() {
	}

	/**
	 * Starts nodes.
	 * @param count how many
	 * @return the nodes
	 */
	static RedLockFaultNodes start(int count) {
		RedLockFaultNodes started = new RedLockFaultNodes();
		for (int i = 0; i < count; i++) {
			started.nodes.add(RedisNode.start(Persistence.NONE));
		}
		return started;
	}

	/**
	 * Starts nodes, the first behind a {@link FaultProxy}: clients reach it only through
	 * the proxy.
	 * @param count how many
	 * @return the nodes
	 */
	static RedLockFaultNodes startWithProxyInFrontOfTheFirst(int count) {
		return startWithProxies(count, 1);
	}

	/**
	 * Starts nodes, the first ones each behind a {@link FaultProxy}: clients reach them
	 * only through their proxies.
	 * @param count how many nodes
	 * @param proxied how many of them, from the first, behind a proxy
	 * @return the nodes
	 */
	static RedLockFaultNodes startWithProxies(int count, int proxied) {
		RedLockFaultNodes started = start(count);
		for (int i = 0; i < proxied; i++) {
			started.proxies.add(FaultProxy.start(started.nodes.get(i).port()));
		}
		return started;
	}

	RedisNode node(int index) {
		return this.nodes.get(index);
	}

	FaultProxy proxy() {
		return proxy(0);
	}

	FaultProxy proxy(int index) {
		if (index >= this.proxies.size()) {
			throw new IllegalStateException("No proxy in front of node " + index + ": start with startWithProxies");
		}
		return this.proxies.get(index);
	}

	int size() {
		return this.nodes.size();
	}

	/**
	 * How many nodes a lock needs.
	 * @return the majority of the nodes
	 */
	int majority() {
		return this.nodes.size() / 2 + 1;
	}

	/**
	 * The URLs clients use, the proxy's for a node behind one.
	 * @return {@code redis://127.0.0.1:<port>} for each node
	 */
	List<String> urls() {
		List<String> urls = new ArrayList<>();
		for (int i = 0; i < this.nodes.size(); i++) {
			int port = (i < this.proxies.size()) ? this.proxies.get(i).port() : this.nodes.get(i).port();
			urls.add("redis://127.0.0.1:" + port);
		}
		return urls;
	}

	/**
	 * The properties of an application (or worker JVM) with
	 * {@code distlock.store=redlock} on these nodes. Its own Redis connection
	 * ({@code spring.data.redis.*}), which RedLock does not use for locks, goes to the
	 * given port. It counts a restarted node at once
	 * ({@code distlock.redlock.appendfsync-always=true}): the scenarios that use it are
	 * not about restarts, and the nodes are fresh; {@link #enforcingClient(Duration)}
	 * keeps the delayed-restart rule.
	 * @param applicationRedisPort the port of {@code spring.data.redis.port}
	 * @param nodeTimeout {@code distlock.redlock.node-timeout}
	 * @param more further {@code name=value} properties
	 * @return the properties
	 */
	List<String> properties(int applicationRedisPort, Duration nodeTimeout, String... more) {
		List<String> properties = LockApps.properties(applicationRedisPort, "distlock.store=redlock",
				"distlock.redlock.nodes=" + String.join(",", urls()),
				"distlock.redlock.node-timeout=" + nodeTimeout.toMillis() + "ms",
				"distlock.redlock.appendfsync-always=true");
		properties.addAll(List.of(more));
		return properties;
	}

	/**
	 * A client on every node, connected before it is returned, that counts a restarted
	 * node at once ({@code appendfsyncAlways}), as if every node persisted every write:
	 * the scenarios that use it are not about restarts, and the nodes are fresh.
	 * @param nodeTimeout the node timeout
	 * @return the client
	 */
	RedLockClient client(Duration nodeTimeout) {
		return client(nodeTimeout, true);
	}

	/**
	 * A client on every node that enforces the delayed-restart rule, as by default: a
	 * node that restarted counts towards no majority until it has been up for the longest
	 * lease (3 s, the renewal lease, or longer if given) plus the drift margin. Returned
	 * once it counts every (fresh) node.
	 * @param nodeTimeout the node timeout
	 * @return the client
	 */
	RedLockClient enforcingClient(Duration nodeTimeout) {
		RedLockClient client = client(nodeTimeout, false);
		awaitCounted(client);
		return client;
	}

	private RedLockClient client(Duration nodeTimeout, boolean appendfsyncAlways) {
		RedLockClient client = RedLockClient.builder(urls())
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(5)))
			.nodeTimeout(nodeTimeout)
			.renewalLease(Duration.ofSeconds(3))
			.appendfsyncAlways(appendfsyncAlways)
			.build();
		this.clients.add(client);
		client.checkNodes(Duration.ofSeconds(5));
		awaitConnected();
		return client;
	}

	/**
	 * Waits until the client counts every node's grants.
	 * @param client the client
	 */
	static void awaitCounted(RedLockClient client) {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (!client.quarantinedNodes().isEmpty()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						"RedLock nodes still quarantined after 30 s: " + client.quarantinedNodes());
			}
			Pause.millis(20);
		}
	}

	/**
	 * Waits until every client's connection to every node answers a {@code PING}.
	 */
	void awaitConnected() {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		for (RedLockClient client : this.clients) {
			Map<String, Boolean> answers;
			while ((answers = client.pingNodes(Duration.ofMillis(200))).containsValue(false)) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException("Not every RedLock node answers after 10 s: " + answers);
				}
				Pause.millis(5);
			}
		}
	}

	/**
	 * Whether a node has a key whose name contains the lock key.
	 * @param index the node
	 * @param key the lock key given to the client
	 * @return whether some key on the node contains it
	 */
	boolean holdsKey(int index, String key) {
		Object keys = Resp.call(this.nodes.get(index).port(), "KEYS", "*" + key + "*");
		return keys instanceof List<?> list && !list.isEmpty();
	}

	/**
	 * The SHA1 a RedLock script is sent with ({@code EVALSHA}), a marker for the
	 * {@link FaultProxy}.
	 * @param script the script's file name, such as {@code acquire.lua}
	 * @return the SHA1, in lower-case hex
	 */
	static String scriptSha(String script) {
		try (InputStream in = RedLockClient.class.getResourceAsStream(script)) {
			if (in == null) {
				throw new IllegalStateException("No RedLock script dev/distlock/redlock/" + script);
			}
			String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.clients.forEach(RedLockClient::close);
		this.proxies.forEach(FaultProxy::close);
		this.nodes.forEach(RedisNode::close);
	}

}
