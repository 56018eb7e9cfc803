package dev.distlock.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Finds and checks TCP ports on the loopback interface.
 */
final class LocalPorts {

	/** Loopback address every process started by this module binds to. */
	static final String LOOPBACK = "127.0.0.1";

	private LocalPorts() {
	}

	/**
	 * Asks the operating system for a port that is free on the loopback interface right
	 * now.
	 * @return a free port
	 * @throws UncheckedIOException if no port can be bound
	 */
	static int findFree() {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(LOOPBACK, 0));
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not find a free port on " + LOOPBACK, ex);
		}
	}

	/**
	 * Whether a server could bind the given port on the loopback interface right now.
	 * @param port the port to check
	 * @return {@code true} if binding succeeds, {@code false} if something else holds the
	 * port
	 */
	static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(LOOPBACK, port));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
