package dev.distlock.sample.demo;

import dev.distlock.sample.redis.EmbeddedRedisAvailability;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * The demo's Redis: a {@code redis-server} process on a free port of {@code 127.0.0.1},
 * run by {@link RedisServerProcess} of the development-only {@code lock-test-support}.
 * The only class of the demo that refers to it, so that {@link DemoLauncher} can check
 * {@link EmbeddedRedisAvailability} before this class is loaded.
 */
final class DemoRedisServer implements AutoCloseable {

	private final RedisServerProcess process;

	private DemoRedisServer(RedisServerProcess process) {
		this.process = process;
	}

	/**
	 * Starts a server and waits until it answers.
	 * @return the running server
	 */
	static DemoRedisServer start() {
		return new DemoRedisServer(RedisServerProcess.startOnFreePort());
	}

	/**
	 * Returns the server's URL.
	 * @return {@code redis://127.0.0.1:<port>}
	 */
	String url() {
		return this.process.url();
	}

	/**
	 * Stops the server.
	 */
	@Override
	public void close() {
		this.process.close();
	}

}
