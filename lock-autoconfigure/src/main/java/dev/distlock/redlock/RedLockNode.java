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
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Function;

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
import org.jspecify.annotations.Nullable;

/**
 * One independent Redis master of a {@link RedLockClient}, on a connection of its own,
 * used only through Lettuce's asynchronous API. Every command is bounded by the node
 * timeout (Lettuce's command timeout), and fails at once while the node is not connected,
 * so a node that is down, paused or cut off costs at most that long. A node that could
 * not be connected to is connected again on a later command, at most once per node
 * timeout, so it rejoins when it is back. A second connection receives the node's release
 * messages ({@link RedLockWaiters}), connected again in the same way.
 */
final class RedLockNode implements AutoCloseable {

	private final RedisClient client;

	private final RedisURI uri;

	private final String name;

	private final String server;

	private final LongAdder granted = new LongAdder();

	private final LongAdder refused = new LongAdder();

	private final LongAdder timedOut = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final long timeoutNanos;

	private final Object connecting = new Object();

	private volatile CompletableFuture<StatefulRedisConnection<String, String>> connection;

	private volatile long lastConnectNanos;

	private final Object connectingPubSub = new Object();

	private volatile CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub;

	private volatile long lastPubSubConnectNanos;

	private volatile @Nullable BiConsumer<String, String> releases;

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
				this.timedOut.sum(), this.failed.sum());
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
