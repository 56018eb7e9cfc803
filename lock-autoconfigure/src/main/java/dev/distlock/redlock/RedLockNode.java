package dev.distlock.redlock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;

/**
 * One independent Redis master of a {@link RedLockClient}, on a connection of its own,
 * used only through Lettuce's asynchronous API. Every command is bounded by the node
 * timeout: a command that has no reply by then fails with a
 * {@link java.util.concurrent.TimeoutException}, so a node that is down, paused or cut
 * off costs at most that long. A node that could not be connected to is connected again
 * on a later command, at most once per node timeout, so it rejoins when it is back.
 */
final class RedLockNode implements AutoCloseable {

	private final RedisClient client;

	private final RedisURI uri;

	private final String name;

	private final long timeoutNanos;

	private final Object connecting = new Object();

	private volatile CompletableFuture<StatefulRedisConnection<String, String>> connection;

	private volatile long lastConnectNanos;

	RedLockNode(RedisClient client, String url, int index, Duration timeout) {
		this.client = client;
		this.uri = RedisURI.create(url);
		String server = RedLockNodeAddresses.server(url);
		this.name = "distlock.redlock.nodes[" + index + "] (" + ((server != null) ? server : "?") + ")";
		this.timeoutNanos = timeout.toNanos();
		this.lastConnectNanos = System.nanoTime();
		this.connection = connect();
	}

	/** The node's property and server, without credentials, for messages. */
	String name() {
		return this.name;
	}

	/**
	 * Runs a script on this node, by EVALSHA, loading it with EVAL if the node does not
	 * know it (after a restart).
	 * @return its reply, or a failure if the node did not answer within the node timeout
	 */
	<T> CompletableFuture<T> eval(RedLockScript script, ScriptOutputType type, String[] keys, String... args) {
		return withConnection(
				(commands) -> commands.<T>evalsha(script.sha1(), type, keys, args)
					.toCompletableFuture()
					.exceptionallyCompose((ex) -> isNoScript(ex)
							? commands.<T>eval(script.text(), type, keys, args).toCompletableFuture()
							: CompletableFuture.failedFuture(ex)));
	}

	/**
	 * Sends a command other than a script (ROLE, INFO), bounded by the given timeout.
	 */
	<T> CompletableFuture<T> command(
			java.util.function.Function<RedisAsyncCommands<String, String>, CompletableFuture<T>> command,
			Duration timeout) {
		return current().thenCompose((connection) -> command.apply(connection.async()))
			.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	private <T> CompletableFuture<T> withConnection(
			java.util.function.Function<RedisAsyncCommands<String, String>, CompletableFuture<T>> command) {
		return current().thenCompose((connection) -> command.apply(connection.async()))
			.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS);
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
	}

	@Override
	public String toString() {
		return this.name;
	}

}
