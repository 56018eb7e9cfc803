package dev.distlock.aop;

import java.lang.reflect.Method;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockMode;

/**
 * How a {@link DistributedLock @DistributedLock} method locks its key: its
 * {@link DistributedLock#mode() mode} and {@link DistributedLock#permits() permits}, read
 * from the annotation and checked against each other and against
 * {@link DistributedLock#keys() keys}, which lock exclusively.
 *
 * @param mode how the lock is shared
 * @param permits how many holders the key admits at once
 */
record LockKind(LockMode mode, int permits) {

	/**
	 * Reads and checks the kind of a method's lock.
	 * @param method the annotated method, named by the failure
	 * @param annotation its merged annotation
	 * @return the kind
	 * @throws InvalidLockDefinitionException if the permits are less than one, given with
	 * a read or write mode, or a shared kind is asked for several keys
	 */
	static LockKind of(Method method, DistributedLock annotation) {
		LockMode mode = annotation.mode();
		int permits = annotation.permits();
		if (permits < 1) {
			throw new InvalidLockDefinitionException(method, "permits = " + permits + " is less than 1",
					"Set permits to 1 for a lock, or to the number of holders allowed at once for a semaphore, "
							+ "such as permits = 5.",
					null);
		}
		if (permits > 1 && mode != LockMode.EXCLUSIVE) {
			throw new InvalidLockDefinitionException(method,
					"permits = " + permits + " is given with mode = " + mode
							+ ", and a semaphore has no read or write side",
					"Use either permits (a semaphore: at most that many holders at once) or mode = READ or WRITE "
							+ "(a read-write lock), not both.",
					null);
		}
		LockKind kind = new LockKind(mode, permits);
		if (annotation.keys().length > 0 && kind.isShared()) {
			throw new InvalidLockDefinitionException(method,
					"keys locks several keys, which only exclusive locks can do, and " + kind.attributes()
							+ " is given",
					"Lock one key (key = ...) with " + kind.attributes()
							+ ", or remove mode and permits to lock all the keys exclusively.",
					null);
		}
		return kind;
	}

	/**
	 * Whether the key is a read-write lock or a semaphore, which Redis keeps apart from
	 * exclusive locks.
	 */
	boolean isShared() {
		return this.mode != LockMode.EXCLUSIVE || this.permits > 1;
	}

	/**
	 * Whether two kinds can lock the same key: both exclusive, both sides of a read-write
	 * lock, or semaphores of the same size.
	 */
	boolean sharesKeyWith(LockKind other) {
		return (this.mode == LockMode.EXCLUSIVE) == (other.mode == LockMode.EXCLUSIVE) && this.permits == other.permits;
	}

	/** Describes the kind as the annotation's attributes say it. */
	String attributes() {
		if (this.permits > 1) {
			return "permits = " + this.permits;
		}
		return "mode = " + this.mode;
	}

	/** Describes the structure Redis keeps the key in. */
	String structure() {
		if (this.permits > 1) {
			return "a semaphore of " + this.permits + " permits";
		}
		return (this.mode != LockMode.EXCLUSIVE) ? "a read-write lock" : "an exclusive lock";
	}

}
