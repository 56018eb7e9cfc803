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

package dev.distlock.redlock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One independent Redis master of a {@link RedLockClient}, on a connection of its own,
 * used only through Lettuce's asynchronous API. Every command is bounded by the node
 * timeout (Lettuce's command timeout), and fails at once while the node is not connected,
 * so a node that is down, paused or cut off costs at most that long. A node that could
 * not be connected to is connected again on a later command, at most once per node
 * timeout, so it rejoins when it is back. A second connection receives the node's release
 * messages ({@link RedLockWaiters}), connected again in the same way.
 * <p>
 * <b>Restarts.</b> A node that restarted may have lost locks it granted before, still
 * valid on other nodes. Unless told that the nodes persist every write
 * ({@link #countGrantsAfterRestart(LongSupplier)} not called), a node's grants count
 * towards a majority only once it has been up for the restart delay (the longest lease
 * plus its drift margin): it is read from {@code INFO server} ({@code run_id},
 * {@code uptime_in_seconds}) after every connection, and again whenever the connection
 * was lost, since a restart drops it; until then the node's grants do not count. A node
 * whose {@code run_id} did not change (the connection alone was lost) counts again as
 * soon as that is read.
 */
final class RedLockNode implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedLockNode.class);

	private final RedisClient client;

	private final RedisURI uri;

	private final String name;

	private final String server;

	private final LongAdder granted = new LongAdder();

	private final LongAdder refused = new LongAdder();

	private final LongAdder timedOut = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final LongAdder quarantined = new LongAdder();

	private final long timeoutNanos;

	private final Object connecting = new Object();

	private volatile CompletableFuture<StatefulRedisConnection<String, String>> connection;

	private volatile long lastConnectNanos;

	private final Object connectingPubSub = new Object();

	private volatile CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub;

	private volatile long lastPubSubConnectNanos;

	private volatile @Nullable BiConsumer<String, String> releases;

	/** The restart delay in nanoseconds, or null when the nodes persist every write. */
	private volatile @Nullable LongSupplier restartDelay;

	/** Counts the losses of the command connection, each of which may be a restart. */
	private final AtomicLong connectionEpoch = new AtomicLong();

	/** The connection epoch whose node was read from INFO, -1 for none yet. */
	private volatile long verifiedEpoch = -1;

	/** Grants sent before this time, by {@link System#nanoTime()}, do not count. */
	private volatile long countsFrom;

	private volatile @Nullable String runId;

	/** Whether an INFO is on its way. */
	private final AtomicBoolean verifying = new AtomicBoolean();

	RedLockNode(RedisClient client, String url, int index, Duration timeout) {
		this.client = client;
		this.uri = RedisURI.create(url);
		String server = RedLockNodeAddresses.server(url);
		this.server = (server != null) ? server : "?";
		this.name = "distlock.redlock.nodes[" + index + "] (" + this.server + ")";
		this.timeoutNanos = timeout.toNanos();
		this.lastConnectNanos = System.nanoTime();
		this.connection = connect();
		this.lastPubSubConnectNanos = this.lastConnectNanos;
		this.pubSub = connectPubSub();
	}

	/** The node's property and server, without credentials, for messages. */
	String name() {
		return this.name;
	}

	/**
	 * Makes the node's grants count only once it has been up for the given delay after it
	 * (re)started, reading its start from INFO from now on.
	 * @param restartDelay the longest lease plus its drift margin, in nanoseconds, read
	 * when a restart is found
	 */
	void countGrantsAfterRestart(LongSupplier restartDelay) {
		this.restartDelay = restartDelay;
		this.connection.thenRun(this::verify);
	}

	/**
	 * Whether a grant sent at the given time counts towards a majority: always when the
	 * nodes persist every write; else only when the node was read from INFO since its
	 * connection was last lost (asking for it if not), and had been up for the restart
	 * delay by then.
	 * @param sentNanos when the request was sent, by {@link System#nanoTime()}
	 * @return whether the grant counts
	 */
	boolean grantCounts(long sentNanos) {
		if (this.restartDelay == null) {
			return true;
		}
		if (this.verifiedEpoch != this.connectionEpoch.get()) {
			verify();
			return false;
		}
		return sentNanos - this.countsFrom >= 0;
	}

	/** Counts a grant that did not count, because the node restarted too recently. */
	void countQuarantined() {
		this.quarantined.increment();
	}

	/**
	 * Notes that a connection was lost: if it was this node's command connection, the
	 * node may have restarted, and its grants count only once it was read again.
	 * @param connection the connection that was lost
	 */
	void disconnected(RedisChannelHandler<?, ?> connection) {
		if (this.connection.getNow(null) == connection) {
			this.connectionEpoch.incrementAndGet();
		}
	}

	/**
	 * Notes that a connection was established: if it is this node's command connection,
	 * reads the node again.
	 * @param connection the connection
	 */
	void connected(RedisChannelHandler<?, ?> connection) {
		if (this.restartDelay != null && this.connection.getNow(null) == connection) {
			verify();
		}
	}

	/**
	 * Reads {@code run_id} and {@code uptime_in_seconds}, unless a read is on its way or
	 * the node is not connected, and applies them if the connection was not lost
	 * meanwhile. Takes no lock: it runs on the event loops too (from
	 * {@link #grantCounts(long)} and the connection events).
	 */
	void verify() {
		LongSupplier restartDelay = this.restartDelay;
		CompletableFuture<StatefulRedisConnection<String, String>> connection = this.connection;
		if (restartDelay == null || !connection.isDone() || connection.isCompletedExceptionally()
				|| !this.verifying.compareAndSet(false, true)) {
			return;
		}
		long epoch = this.connectionEpoch.get();
		CompletableFuture<String> info;
		try {
			info = connection.join().async().info("server").toCompletableFuture();
		}
		catch (RuntimeException ex) {
			this.verifying.set(false);
			return;
		}
		info.whenComplete((server, failure) -> {
			try {
				// A connection lost meanwhile may have been a restart: read again then.
				if (failure == null && epoch == this.connectionEpoch.get()) {
					started(server, System.nanoTime(), restartDelay.getAsLong());
					this.verifiedEpoch = epoch;
				}
			}
			finally {
				this.verifying.set(false);
			}
		});
	}

	/**
	 * Applies what INFO says: a {@code run_id} not seen before means a (re)start, whose
	 * grants count only from its start plus the restart delay.
	 */
	private void started(String info, long read, long restartDelay) {
		String runId = RedLockClient.infoField(info, "run_id");
		String uptime = RedLockClient.infoField(info, "uptime_in_seconds");
		if (runId == null || uptime == null) {
			throw new IllegalStateException(this.name + " sent no run_id or uptime_in_seconds in INFO server");
		}
		if (runId.equals(this.runId)) {
			return;
		}
		// Started at most the whole seconds of its uptime before the reply came.
		long startedBy = read - TimeUnit.SECONDS.toNanos(Long.parseLong(uptime));
		long countsFrom = startedBy + restartDelay;
		String earlier = this.runId;
		this.runId = runId;
		this.countsFrom = countsFrom;
		long left = countsFrom - read;
		if (left > 0) {
			logger.warn(this.name
					+ ((earlier != null) ? " restarted (run_id " + earlier + " is now " + runId + ")"
							: " started " + uptime + "s ago (run_id " + runId + ")")
					+ ": its grants count towards no RedLock majority for another "
					+ TimeUnit.NANOSECONDS.toMillis(left)
					+ "ms, until it has been up for the longest lease plus the drift margin, since it may have lost "
					+ "locks granted before it restarted. Set distlock.redlock.appendfsync-always=true only if every "
					+ "node runs with appendfsync always.");
		}
	}

	/**
	 * Counts how this node answered one acquisition attempt (phase 1).
	 * @param granted whether it granted, if it answered
	 * @param failure why it did not answer, or null if it did
	 */
	void countAttempt(boolean granted, @Nullable Throwable failure) {
		if (failure == null) {
			(granted ? this.granted : this.refused).increment();
		}
		else if (isTimeout(failure)) {
			this.timedOut.increment();
		}
		else {
			this.failed.increment();
		}
	}

	/** How this node answered acquisition attempts so far. */
	RedLockNodeOutcomes outcomes() {
		return new RedLockNodeOutcomes(this.name, this.server, this.granted.sum(), this.refused.sum(),
				this.timedOut.sum(), this.failed.sum(), this.quarantined.sum());
	}

	private static boolean isTimeout(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof RedisCommandTimeoutException || cause instanceof TimeoutException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Runs a script on this node, by EVALSHA, loading it with EVAL if the node does not
	 * know it (after a restart). Fails at once while the node is not connected, and after
	 * the node timeout (Lettuce's command timeout) when the node does not answer. No
	 * {@code CompletableFuture.orTimeout} here: its cancellation takes a lock on the
	 * thread that completes the reply, a Netty event loop.
	 * @return its reply, or a failure if the node did not answer within the node timeout
	 */
	<T> CompletableFuture<T> eval(RedLockScript script, ScriptOutputType type, String[] keys, String... args) {
		CompletableFuture<StatefulRedisConnection<String, String>> connection = current();
		if (!connection.isDone()) {
			return CompletableFuture.failedFuture(new RedisConnectionException(this.name + " is still connecting"));
		}
		return connection.thenCompose((connected) -> {
			RedisAsyncCommands<String, String> commands = connected.async();
			return commands.<T>evalsha(script.sha1(), type, keys, args)
				.toCompletableFuture()
				.exceptionallyCompose(
						(ex) -> isNoScript(ex) ? commands.<T>eval(script.text(), type, keys, args).toCompletableFuture()
								: CompletableFuture.failedFuture(ex));
		});
	}

	/**
	 * Sends a command other than a script (ROLE, INFO, PING), waiting up to the given
	 * timeout for the connection; the command itself is bounded by the node timeout.
	 */
	<T> CompletableFuture<T> command(Function<RedisAsyncCommands<String, String>, CompletionStage<T>> command,
			Duration connectTimeout) {
		try {
			StatefulRedisConnection<String, String> connected = current().get(connectTimeout.toNanos(),
					TimeUnit.NANOSECONDS);
			return command.apply(connected.async()).toCompletableFuture();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return CompletableFuture.failedFuture(ex);
		}
		catch (ExecutionException ex) {
			return CompletableFuture.failedFuture(ex.getCause());
		}
		catch (TimeoutException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Sets who is told of the release messages this node publishes.
	 * @param releases called with the channel and the released owner token, on the node's
	 * event loop
	 */
	void listen(BiConsumer<String, String> releases) {
		this.releases = releases;
	}

	/**
	 * Subscribes to a channel, failing at once while the node is not connected: Lettuce
	 * subscribes again after a reconnection only to the channels it had confirmed.
	 * @return completed when the node confirmed the subscription
	 */
	CompletableFuture<Void> subscribe(String channel) {
		CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub = currentPubSub();
		if (!pubSub.isDone() || pubSub.isCompletedExceptionally()) {
			return CompletableFuture.failedFuture(new RedisConnectionException(this.name + " is not connected"));
		}
		return pubSub.join().async().subscribe(channel).toCompletableFuture();
	}

	/**
	 * Unsubscribes from a channel, without waiting; a channel that stays subscribed (the
	 * node was not connected) is unsubscribed when its next message finds nobody waiting.
	 */
	void unsubscribe(String channel) {
		CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub = this.pubSub;
		if (pubSub.isDone() && !pubSub.isCompletedExceptionally()) {
			pubSub.join().async().unsubscribe(channel);
		}
	}

	private CompletableFuture<StatefulRedisPubSubConnection<String, String>> currentPubSub() {
		CompletableFuture<StatefulRedisPubSubConnection<String, String>> current = this.pubSub;
		if (!current.isCompletedExceptionally()
				|| System.nanoTime() - this.lastPubSubConnectNanos < this.timeoutNanos) {
			return current;
		}
		synchronized (this.connectingPubSub) {
			if (this.pubSub == current) {
				this.lastPubSubConnectNanos = System.nanoTime();
				this.pubSub = connectPubSub();
			}
			return this.pubSub;
		}
	}

	private CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
		return this.client.connectPubSubAsync(StringCodec.UTF8, this.uri)
			.toCompletableFuture()
			.thenApply((connected) -> {
				connected.addListener(new RedisPubSubAdapter<>() {

					@Override
					public void message(String channel, String message) {
						BiConsumer<String, String> releases = RedLockNode.this.releases;
						if (releases != null) {
							releases.accept(channel, message);
						}
					}

				});
				return connected;
			});
	}

	/**
	 * Returns the connection, connecting again if the last attempt failed and was more
	 * than a node timeout ago.
	 */
	private CompletableFuture<StatefulRedisConnection<String, String>> current() {
		CompletableFuture<StatefulRedisConnection<String, String>> current = this.connection;
		if (!current.isCompletedExceptionally() || System.nanoTime() - this.lastConnectNanos < this.timeoutNanos) {
			return current;
		}
		synchronized (this.connecting) {
			if (this.connection == current) {
				this.lastConnectNanos = System.nanoTime();
				this.connection = connect();
			}
			return this.connection;
		}
	}

	private CompletableFuture<StatefulRedisConnection<String, String>> connect() {
		return this.client.connectAsync(StringCodec.UTF8, this.uri).toCompletableFuture();
	}

	private static boolean isNoScript(Throwable ex) {
		Throwable cause = (ex instanceof java.util.concurrent.CompletionException && ex.getCause() != null)
				? ex.getCause() : ex;
		String message = cause.getMessage();
		return message != null && message.startsWith("NOSCRIPT");
	}

	@Override
	public void close() {
		this.connection.thenAccept(StatefulRedisConnection::close);
		this.pubSub.thenAccept(StatefulRedisPubSubConnection::close);
	}

	@Override
	public String toString() {
		return this.name;
	}

}
