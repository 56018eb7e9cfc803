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
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One client connection through a {@link FaultProxy} and its connection to Redis, pumped
 * by two threads that apply the proxy's current fault to every chunk.
 */
final class ProxiedConnection {

	private final FaultProxy proxy;

	private final Socket client;

	private final Socket upstream;

	private volatile boolean swallowReplies;

	private volatile long resetAfterMillis;

	ProxiedConnection(FaultProxy proxy, Socket client, Socket upstream) {
		this.proxy = proxy;
		this.client = client;
		this.upstream = upstream;
	}

	void start() throws IOException {
		this.client.setTcpNoDelay(true);
		this.upstream.setTcpNoDelay(true);
		startPump("up", this.client.getInputStream(), this.upstream.getOutputStream(), true);
		startPump("down", this.upstream.getInputStream(), this.client.getOutputStream(), false);
	}

	private void startPump(String direction, InputStream in, OutputStream out, boolean requests) {
		Thread thread = new Thread(() -> pump(in, out, requests),
				"fault-proxy-" + this.client.getPort() + "-" + direction);
		thread.setDaemon(true);
		thread.start();
	}

	private void pump(InputStream in, OutputStream out, boolean requests) {
		byte[] buffer = new byte[16384];
		ReplyDrop heldBack = null;
		try {
			int n;
			while ((n = in.read(buffer)) != -1) {
				if (requests) {
					ReplyDrop drop = this.proxy.claimReplyDrop(buffer, n);
					if (drop != null && drop.holdMillis() > 0) {
						drop.fire();
						LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(drop.holdMillis()));
						heldBack = drop;
					}
					else if (drop != null) {
						if (drop.forwardsRequest()) {
							this.resetAfterMillis = drop.resetAfterMillis();
							this.swallowReplies = true;
							out.write(buffer, 0, n);
							out.flush();
							if (this.resetAfterMillis > 0) {
								resetLater(this.resetAfterMillis);
							}
						}
						else {
							reset();
						}
						drop.fire();
						continue;
					}
				}
				else if (this.swallowReplies) {
					if (this.resetAfterMillis > 0) {
						// Stalled: every reply is swallowed until the reset.
						continue;
					}
					reset();
					return;
				}
				FaultProxy.Mode mode = this.proxy.mode;
				if (mode == FaultProxy.Mode.BLACKHOLE) {
					if (heldBack != null) {
						// Held back, then swallowed: it never reaches Redis.
						heldBack.lost();
						heldBack = null;
					}
					continue;
				}
				if (mode == FaultProxy.Mode.DELAY) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(this.proxy.delayMillis));
				}
				out.write(buffer, 0, n);
				out.flush();
				if (heldBack != null) {
					heldBack.forwarded();
					heldBack = null;
				}
			}
		}
		catch (IOException ex) {
			// Either side went away.
		}
		if (heldBack != null) {
			heldBack.lost();
		}
		reset();
	}

	private void resetLater(long millis) {
		Thread resetter = new Thread(() -> {
			Pause.millis(millis);
			reset();
		}, "fault-proxy-" + this.client.getPort() + "-reset");
		resetter.setDaemon(true);
		resetter.start();
	}

	/** Closes both sockets with a TCP reset (linger 0). */
	void reset() {
		resetQuietly(this.client);
		resetQuietly(this.upstream);
		this.proxy.closed(this);
	}

	static void resetQuietly(Socket socket) {
		try {
			if (!socket.isClosed()) {
				socket.setSoLinger(true, 0);
			}
			socket.close();
		}
		catch (IOException ex) {
			// Already closed.
		}
	}

}
