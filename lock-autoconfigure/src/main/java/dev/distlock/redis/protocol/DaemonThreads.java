package dev.distlock.redis.protocol;

import java.util.concurrent.ThreadFactory;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Creates the background threads of a client: daemon threads, so that a client that is
 * never closed does not keep the JVM alive, named after their job
 * ({@code distlock-renewal-1}, ...).
 */
public final class DaemonThreads {

	private DaemonThreads() {
	}

	/**
	 * Returns a factory of daemon threads.
	 * @param job what the threads do, such as {@code "distlock-renewal"}
	 * @return the factory
	 */
	public static ThreadFactory named(String job) {
		CustomizableThreadFactory factory = new CustomizableThreadFactory(job + "-");
		factory.setDaemon(true);
		return factory;
	}

}
