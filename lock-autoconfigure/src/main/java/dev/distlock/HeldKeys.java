package dev.distlock;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The failure of a question about a key that a handle does not hold, shared by
 * {@link LockHandle} and {@link MultiLockHandle} so that neither calls the other.
 */
final class HeldKeys {

	private HeldKeys() {
	}

	/**
	 * Returns the failure of asking a handle about a key it does not hold.
	 * @param key the key asked about
	 * @param held the keys the handle holds
	 * @return the exception, naming the key and the keys held
	 */
	static IllegalArgumentException notHeld(String key, List<String> held) {
		return new IllegalArgumentException("Lock " + LockKeyQuoting.quote(key) + " is not held by this handle, "
				+ "which holds " + held.stream().map(LockKeyQuoting::quote).collect(Collectors.joining(", "))
				+ ". Give the key as the handle's keys() report it, with distlock.key-prefix.");
	}

}
