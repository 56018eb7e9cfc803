package dev.distlock.faults;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * distlock's lock of one kind (exclusive, read, write, or a permit of a semaphore)
 * through the worker's {@link LockClient} bean; several keys are taken all or nothing.
 */
final class DistlockWorkerLock implements WorkerLock {

	private final LockClient client;

	private final LockMode mode;

	private final int permits;

	DistlockWorkerLock(LockClient client, LockMode mode, int permits) {
		this.client = client;
		this.mode = mode;
		this.permits = permits;
	}

	@Override
	public Held take(List<String> keys, @Nullable Duration lease, Duration wait) {
		LockOptions options = new LockOptions(wait, lease, Duration.ZERO).withMode(this.mode).withPermits(this.permits);
		LockHandle handle = (keys.size() == 1) ? this.client.lock(keys.get(0), options)
				: this.client.lock(keys, options);
		return new Held() {

			@Override
			public long token(String key) {
				return (keys.size() == 1) ? handle.fencingToken() : handle.fencingToken(key);
			}

			@Override
			public boolean isLeaseLost() {
				return handle.isLeaseLost();
			}

			@Override
			public boolean isReleased() {
				return handle.isReleased();
			}

			@Override
			public void release() {
				handle.release();
			}

		};
	}

	@Override
	public boolean exclusive() {
		return this.mode != LockMode.READ && this.permits == 1;
	}

}
