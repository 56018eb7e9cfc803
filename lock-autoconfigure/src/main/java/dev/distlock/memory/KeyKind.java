package dev.distlock.memory;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * The way a key is locked, which every holder and waiter of the key must share, as in
 * Redis, where an exclusive lock, a read-write lock and a semaphore live in different
 * structures and a semaphore's holders are counted against one size.
 *
 * @param readWrite whether the key is a read-write lock
 * @param permits how many holders it admits: 1 for a lock, more for a semaphore
 */
record KeyKind(boolean readWrite, int permits) {

	/** The kind of an ordinary exclusive lock. */
	static final KeyKind EXCLUSIVE = new KeyKind(false, 1);

	/** Returns the kind that options lock a key as. */
	static KeyKind of(LockOptions options) {
		return new KeyKind(options.mode() != LockMode.EXCLUSIVE, options.permits());
	}

	/** Whether the key is a read-write lock or a semaphore. */
	boolean isShared() {
		return this.readWrite || this.permits > 1;
	}

	/**
	 * Returns the failure of a call that asks for a key in another way than it is held or
	 * waited for.
	 * @param key the key
	 * @param asked the kind the call asks for
	 * @param mode the mode the call asks for
	 * @return the exception, naming the key and both kinds
	 */
	LockMisconfigurationException mismatch(String key, KeyKind asked, LockMode mode) {
		String fix = (this.permits > 1 && asked.permits > 1)
				? "Every use of a key must give the same permits, because all its holders are counted against one "
						+ "size; give the same permits everywhere, or use different keys."
				: "Redis keeps exclusive locks, read-write locks and semaphores in different structures, so one key "
						+ "cannot be locked in two of these ways; lock it the same way everywhere, or use different "
						+ "keys.";
		return new LockMisconfigurationException(key, "Could not acquire lock " + LockKeyQuoting.quote(key) + " as "
				+ asked.describe(mode) + ": it is " + describe(null) + " now. " + fix);
	}

	private String describe(@Nullable LockMode mode) {
		if (this.permits > 1) {
			return "a semaphore of " + this.permits + " permits";
		}
		if (!this.readWrite) {
			return "an exclusive lock";
		}
		return (mode != null) ? "the " + mode.name().toLowerCase(Locale.ROOT) + " side of a read-write lock"
				: "a read-write lock";
	}

}
