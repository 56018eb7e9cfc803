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
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * An in-process TCP proxy on a free port of {@code 127.0.0.1} in front of one Redis port,
 * with faults switchable at runtime: {@linkplain #passThrough() pass-through},
 * {@linkplain #delay(long) delay}, {@linkplain #blackhole() blackhole},
 * {@linkplain #resetAll(boolean) reset}, {@linkplain #dropNextReplyTo(String) drop the
 * reply to the next matching request}, and {@linkplain #holdNextRequest(String, long)
 * hold the next matching request back} on its connection alone. One thread pair per
 * connection.
 */
public final class FaultProxy implements AutoCloseable {

	/** What happens to bytes flowing through the proxy. */
	enum Mode {

		/** Forwarded unchanged. */
		PASS,

		/** Forwarded after {@link FaultProxy#delayMillis}. */
		DELAY,

		/** Read and dropped, connections stay open. */
		BLACKHOLE

	}

	private final ServerSocket server;

	private final int targetPort;

	private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();

	private final Thread acceptor;

	volatile Mode mode = Mode.PASS;

	volatile long delayMillis;

	private volatile boolean refusing;

	private volatile @Nullable ReplyDrop replyDrop;

	private FaultProxy(ServerSocket server, int targetPort) {
		this.server = server;
		this.targetPort = targetPort;
		this.acceptor = new Thread(this::acceptAll, "fault-proxy-" + server.getLocalPort());
		this.acceptor.setDaemon(true);
	}

	/**
	 * Starts a proxy to the given port of {@code 127.0.0.1}.
	 * @param targetPort the Redis port
	 * @return the running proxy, in pass-through mode
	 */
	public static FaultProxy start(int targetPort) {
		try {
			ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			FaultProxy proxy = new FaultProxy(server, targetPort);
			proxy.acceptor.start();
			return proxy;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The port applications connect to.
	 * @return the proxy's port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/** Forwards everything unchanged and accepts new connections again. */
	public void passThrough() {
		this.refusing = false;
		this.mode = Mode.PASS;
	}

	/**
	 * Delays each chunk, in both directions.
	 * @param millis the delay
	 */
	public void delay(long millis) {
		this.delayMillis = millis;
		this.mode = Mode.DELAY;
	}

	/** Keeps connections open but delivers nothing either way (bytes are dropped). */
	public void blackhole() {
		this.mode = Mode.BLACKHOLE;
	}

	/**
	 * Closes every current connection with a TCP reset.
	 * @param refuseNew whether new connections are refused (reset at once) until
	 * {@link #passThrough()}
	 */
	public void resetAll(boolean refuseNew) {
		this.refusing = refuseNew;
		for (ProxiedConnection connection : this.connections) {
			connection.reset();
		}
	}

	/**
	 * Forwards the next request whose bytes contain the marker, swallows the reply and
	 * resets that connection: the request ran in Redis, the client never learns its
	 * outcome.
	 * @param marker text the request must contain, such as {@code EVALSHA} or a key
	 * @return the armed fault, to await
	 */
	public ReplyDrop dropNextReplyTo(String marker) {
		ReplyDrop drop = new ReplyDrop(marker, true);
		this.replyDrop = drop;
		return drop;
	}

	/**
	 * Forwards the next request whose bytes contain the marker and stalls its connection:
	 * that reply and every later one on the connection are swallowed, and the connection
	 * is reset only after the given time. The request ran in Redis; its caller hears
	 * nothing until the reset (or its own timeout), as with a reply lost in a network
	 * that does not say so.
	 * @param marker text the request must contain
	 * @param resetAfterMillis how long the connection stays silent before the reset
	 * @return the armed fault, to await
	 */
	public ReplyDrop stallNextReplyTo(String marker, long resetAfterMillis) {
		ReplyDrop drop = new ReplyDrop(marker, true, resetAfterMillis);
		this.replyDrop = drop;
		return drop;
	}

	/**
	 * Swallows the next request whose bytes contain the marker and resets that
	 * connection: the request never reaches Redis.
	 * @param marker text the request must contain
	 * @return the armed fault, to await
	 */
	public ReplyDrop dropNextRequest(String marker) {
		ReplyDrop drop = new ReplyDrop(marker, false);
		this.replyDrop = drop;
		return drop;
	}

	/**
	 * Holds the next request whose bytes contain the marker back for a while before
	 * forwarding it, and with it everything sent after it on the same connection (as TCP
	 * would); the connection stays open, and other connections go on unhindered. A
	 * request sent on another connection meanwhile reaches Redis first.
	 * @param marker text the request must contain, such as a key
	 * @param millis how long to hold it back
	 * @return the armed fault, to await
	 */
	public ReplyDrop holdNextRequest(String marker, long millis) {
		ReplyDrop hold = new ReplyDrop(marker, true, 0, millis);
		this.replyDrop = hold;
		return hold;
	}

	@Nullable ReplyDrop claimReplyDrop(byte[] chunk, int length) {
		ReplyDrop drop = this.replyDrop;
		if (drop != null && drop.matches(chunk, length)) {
			synchronized (this) {
				if (this.replyDrop == drop) {
					this.replyDrop = null;
					return drop;
				}
			}
		}
		return null;
	}

	void closed(ProxiedConnection connection) {
		this.connections.remove(connection);
	}

	private void acceptAll() {
		while (!this.server.isClosed()) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				continue;
			}
			if (this.refusing) {
				ProxiedConnection.resetQuietly(client);
				continue;
			}
			try {
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.targetPort);
				ProxiedConnection connection = new ProxiedConnection(this, client, upstream);
				this.connections.add(connection);
				connection.start();
			}
			catch (IOException ex) {
				// Redis is down: the client sees its connection reset, as it would
				// without the proxy.
				ProxiedConnection.resetQuietly(client);
			}
		}
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// Best effort.
		}
		resetAll(true);
	}

}
