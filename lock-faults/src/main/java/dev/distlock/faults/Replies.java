package dev.distlock.faults;

/**
 * Writes a worker JVM's replies to its standard output, one line each, prefixed with
 * {@link #PREFIX} so that the parent can tell them from log output.
 */
final class Replies {

	static final String PREFIX = "@w ";

	private Replies() {
	}

	static void send(String reply) {
		synchronized (System.out) {
			System.out.println(PREFIX + reply);
			System.out.flush();
		}
	}

	static String describe(Throwable ex) {
		String message = String.valueOf(ex.getMessage()).replace('\n', ' ');
		return ex.getClass().getSimpleName() + " " + message;
	}

}
