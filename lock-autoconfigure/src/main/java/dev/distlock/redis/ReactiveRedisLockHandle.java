package dev.distlock.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import dev.distlock.reactive.ReactiveLockHandle;

/**
 * A lock held by reactive work: a {@link RedisLockHandle} that belongs to no thread
 * (registered, renewed and watched like any other hold of the client), released by the
 * {@link ReactiveReleaser} when its work ends. When its lease is marked lost (by renewal,
 * by its local deadline, or by a forced release), {@link #leaseLost()} completes.
 */
final class ReactiveRedisLockHandle implements ReactiveLockHandle {

	private final RedisLockHandle hold;

	private final ReactiveReleaser releaser;

	private final AtomicBoolean released = new AtomicBoolean();

	private final Sinks.Empty<Void> lost = Sinks.empty();

	ReactiveRedisLockHandle(RedisLockHandle hold, ReactiveReleaser releaser) {
		this.hold = hold;
		this.releaser = releaser;
		hold.onLeaseLost(this.lost::tryEmitEmpty);
	}

	@Override
	public String key() {
		return this.hold.key();
	}

	@Override
	public String name() {
		return this.hold.name();
	}

	@Override
	public Duration leaseTime() {
		return this.hold.leaseTime();
	}

	@Override
	public boolean isAutoRenewing() {
		return this.hold.isAutoRenewing();
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken();
	}

	@Override
	public boolean isLeaseLost() {
		return this.hold.isLeaseLost();
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	@Override
	public Mono<Void> leaseLost() {
		return this.lost.asMono();
	}

	@Override
	public Mono<Void> release() {
		return Mono
			.defer(() -> this.released.compareAndSet(false, true) ? this.releaser.release(this.hold) : Mono.empty());
	}

	@Override
	public String toString() {
		return "ReactiveLockHandle[name=" + name() + ", key=" + key() + ", fencingToken=" + fencingToken()
				+ ", leaseTime=" + leaseTime() + ", autoRenewing=" + isAutoRenewing() + ", released=" + isReleased()
				+ "]";
	}

}
