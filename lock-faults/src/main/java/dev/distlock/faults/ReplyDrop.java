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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot fault armed on a {@link FaultProxy}: the next request containing a marker
 * has its reply swallowed (or is swallowed itself), then its connection is reset, at once
 * or, for a stalled reply, after a while during which every reply on that connection is
 * swallowed; or it is held back for a while on its connection, which stays open.
 */
public final class ReplyDrop {

	private final String marker;

	private final boolean forwardRequest;

	private final CountDownLatch fired = new CountDownLatch(1);

	private volatile long firedNanos;

	private final CountDownLatch forwarded = new CountDownLatch(1);

	private volatile long forwardedNanos;

	private final long resetAfterMillis;

	private final long holdMillis;

	ReplyDrop(String marker, boolean forwardRequest) {
		this(marker, forwardRequest, 0);
	}

	ReplyDrop(String marker, boolean forwardRequest, long resetAfterMillis) {
		this(marker, forwardRequest, resetAfterMillis, 0);
	}

	ReplyDrop(String marker, boolean forwardRequest, long resetAfterMillis, long holdMillis) {
		this.marker = marker;
		this.forwardRequest = forwardRequest;
		this.resetAfterMillis = resetAfterMillis;
		this.holdMillis = holdMillis;
	}

	/**
	 * How long the connection stays open, swallowing replies, before it is reset.
	 * @return the time in ms, 0 to reset at once
	 */
	long resetAfterMillis() {
		return this.resetAfterMillis;
	}

	boolean matches(byte[] chunk, int length) {
		return new String(chunk, 0, length, StandardCharsets.ISO_8859_1).contains(this.marker);
	}

	/**
	 * Whether the request itself reaches Redis (only its reply is lost).
	 * @return {@code true} for a dropped reply, {@code false} for a dropped request
	 */
	boolean forwardsRequest() {
		return this.forwardRequest;
	}

	/**
	 * How long the request is held back before it is forwarded, its connection kept open.
	 * @return the milliseconds, or 0 if the request or its reply is dropped instead
	 */
	long holdMillis() {
		return this.holdMillis;
	}

	void fire() {
		this.firedNanos = System.nanoTime();
		this.fired.countDown();
	}

	/**
	 * Waits until the fault has hit a request.
	 * @param timeout how long to wait at most
	 * @return whether it fired in time
	 */
	public boolean await(Duration timeout) {
		try {
			return this.fired.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * When the fault hit.
	 * @return {@link System#nanoTime()} at the moment the request was seen
	 */
	public long firedNanos() {
		return this.firedNanos;
	}

	/** Records that a held-back request was written on to Redis. */
	void forwarded() {
		this.forwardedNanos = System.nanoTime();
		this.forwarded.countDown();
	}

	/**
	 * Records that a held-back request was lost: its connection closed first, or the
	 * proxy swallowed it (a blackhole).
	 */
	void lost() {
		this.forwardedNanos = 0;
		this.forwarded.countDown();
	}

	/**
	 * Waits until a held-back request has been written on to Redis, which happens after
	 * {@link #holdMillis} at the earliest, later when the proxy's thread wakes late, or
	 * lost because its connection closed first or the proxy was made a blackhole.
	 * @param timeout how long to wait at most
	 * @return {@link System#nanoTime()} when the request was written on, 0 if it was
	 * lost, or -1 if neither happened in time
	 */
	public long awaitForwarded(Duration timeout) {
		try {
			return this.forwarded.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? this.forwardedNanos : -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

}
