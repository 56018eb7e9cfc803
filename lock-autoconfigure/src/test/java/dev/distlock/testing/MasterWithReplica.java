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

package dev.distlock.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.test.redis.RedisServerProcess;

import static org.awaitility.Awaitility.await;

/**
 * A master and one replica, each a {@code redis-server} of its own on a free loopback
 * port, the replica connected ({@code master_link_status:up}) before the first test. The
 * replica can be made unresponsive for a while with {@code DEBUG SLEEP}, which keeps its
 * replication link open (so the master still counts it as connected) while it
 * acknowledges nothing.
 */
public final class MasterWithReplica implements AutoCloseable {

	/** The master. */
	public final RedisServerProcess master = RedisServerProcess.startOnFreePort();

	/** The replica. */
	public final RedisServerProcess replica = RedisServerProcess.startOnFreePort("--replicaof", "127.0.0.1",
			String.valueOf(this.master.port()), "--enable-debug-command", "yes");

	private final LettuceConnectionFactory replicaConnections = TestRedis.connectionFactory(this.replica);

	/** A template on the replica, to read what it has applied. */
	public final StringRedisTemplate replicaRedis = TestRedis.template(this.replicaConnections);

	private Socket sleeping;

	/** Starts both servers and waits until the replica is connected. */
	public MasterWithReplica() {
		awaitLinkUp();
	}

	/** Waits until the replica is connected to the master and in sync. */
	public void awaitLinkUp() {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> "up".equals(this.replicaRedis.execute((RedisCallback<String>) (connection) -> {
				Properties info = connection.serverCommands().info("replication");
				return (info != null) ? info.getProperty("master_link_status") : null;
			})));
	}

	/**
	 * Makes the replica sleep for the given time and returns once it no longer answers.
	 */
	public void sleepReplica(Duration time) {
		try {
			this.sleeping = new Socket("127.0.0.1", this.replica.port());
			send(this.sleeping, "DEBUG SLEEP " + (time.toMillis() / 1000.0));
			await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(this::replicaIsAsleep);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Waits until a replica put to sleep has woken up. */
	public void awaitReplicaAwake() throws IOException {
		if (this.sleeping != null) {
			this.sleeping.setSoTimeout(30_000);
			this.sleeping.getInputStream().read();
			this.sleeping.close();
			this.sleeping = null;
		}
	}

	private boolean replicaIsAsleep() throws IOException {
		try (Socket probe = new Socket("127.0.0.1", this.replica.port())) {
			probe.setSoTimeout(100);
			send(probe, "PING");
			InputStream in = probe.getInputStream();
			in.read();
			return false;
		}
		catch (SocketTimeoutException ex) {
			return true;
		}
	}

	private static void send(Socket socket, String command) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	@Override
	public void close() throws IOException {
		awaitReplicaAwake();
		this.replicaConnections.destroy();
		this.replica.close();
		this.master.close();
	}

}
