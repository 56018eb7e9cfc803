package dev.distlock.virtualthreads;

import java.util.concurrent.TimeUnit;

/**
 * A class whose initializer blocks until {@link VirtualThreadPinningControlTests#OPEN} is
 * opened: a virtual thread blocking in a class initializer cannot leave its carrier, even
 * on JDK 25.
 */
final class SlowInitializer {

	static {
		try {
			VirtualThreadPinningControlTests.OPEN.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private SlowInitializer() {
	}

	static void initialize() {
	}

}
