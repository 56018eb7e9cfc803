package dev.distlock.memory;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockHandle;

/**
 * A re-entrant hold of a lock the thread already holds: it shares the outer hold's key,
 * lease and fencing token, and releasing it only ends this hold; the lock stays held
 * until the outermost hold ends.
 */
final class NestedInMemoryLockHandle implements LockHandle {

	private final InMemoryLockHandle outer;

	private final AtomicBoolean released = new AtomicBoolean();

	NestedInMemoryLockHandle(InMemoryLockHandle outer) {
		this.outer = outer;
	}

	@Override
	public String key() {
		return this.outer.key();
	}

	@Override
	public String name() {
		return this.outer.name();
	}

	@Override
	public Duration leaseTime() {
		return this.outer.leaseTime();
	}

	@Override
	public boolean isAutoRenewing() {
		return this.outer.isAutoRenewing();
	}

	@Override
	public long fencingToken() {
		return this.outer.fencingToken();
	}

	@Override
	public boolean isLeaseLost() {
		return this.outer.isLeaseLost();
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			this.outer.exit();
		}
	}

	@Override
	public String toString() {
		return "NestedInMemoryLockHandle[" + this.outer + "]";
	}

}
