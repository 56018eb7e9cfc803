package dev.distlock.test.redis;

/**
 * The JVM-wide server of {@link RedisTestServers#shared()}: delegates to the real server,
 * except that {@link #close()} does nothing, so that one test closing it (for example
 * with try-with-resources) cannot take it away from the others. The real server is closed
 * by the JVM shutdown hook.
 */
final class SharedRedisServer implements RedisTestServer {

	private final RedisTestServer delegate;

	SharedRedisServer(RedisTestServer delegate) {
		this.delegate = delegate;
	}

	@Override
	public String host() {
		return this.delegate.host();
	}

	@Override
	public int port() {
		return this.delegate.port();
	}

	@Override
	public boolean isStoppable() {
		return this.delegate.isStoppable();
	}

	@Override
	public void stop() {
		this.delegate.stop();
	}

	@Override
	public void start() {
		this.delegate.start();
	}

	/**
	 * Does nothing: the shared server lives until the JVM exits.
	 */
	@Override
	public void close() {
	}

	@Override
	public String toString() {
		return "shared " + this.delegate;
	}

}
