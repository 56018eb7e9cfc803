package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.LockKind;

/**
 * A caller of a {@link RedisLockClient} waiting for a lock that another holder has, as
 * its {@link RedisLockMonitor} reports it.
 *
 * @param name the logical name of the lock
 * @param key the Redis key of the lock
 * @param thread the name of the waiting thread
 * @param waitingFor how long it has been waiting
 * @param kind the kind of lock it waits for: {@value LockKind#EXCLUSIVE},
 * {@value LockKind#READ_WRITE} or {@value LockKind#SEMAPHORE}
 * @param mode the mode it waits for: {@code exclusive}, {@code read} or {@code write}
 * @param permits how many holders the key admits: more than 1 for a semaphore, else 1
 */
public record LockWaiterInfo(String name, String key, String thread, Duration waitingFor, String kind, String mode,
		int permits) {

	LockWaiterInfo(String name, String key, String thread, Duration waitingFor, LockKind kind) {
		this(name, key, thread, waitingFor, kind.label(), kind.modeLabel(), kind.permits());
	}

}
