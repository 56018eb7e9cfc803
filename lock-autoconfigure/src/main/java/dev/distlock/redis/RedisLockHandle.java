package dev.distlock.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockHandle;

/**
 * A lock acquired by {@link RedisLockClient}: the key, this acquisition's owner token and when
 * it was acquired. Released at most once.
 */
final class RedisLockHandle implements LockHandle {

	private final RedisLockClient client;

	private final String key;

	private final String token;

	private final Duration leaseTime;

	private final long acquiredNanos;

	private final AtomicBoolean released = new AtomicBoolean();

	RedisLockHandle(RedisLockClient client, String key, String token, Duration leaseTime, long acquiredNanos) {
		this.client = client;
		this.key = key;
		this.token = token;
		this.leaseTime = leaseTime;
		this.acquiredNanos = acquiredNanos;
	}

	@Override
	public String key() {
		return this.key;
	}

	String token() {
		return this.token;
	}

	@Override
	public Duration leaseTime() {
		return this.leaseTime;
	}

	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			this.client.release(this);
		}
	}

	@Override
	public String toString() {
		return "RedisLockHandle[key=" + this.key + ", leaseTime=" + this.leaseTime + ", released=" + isReleased() + "]";
	}

}
