package dev.distlock.redis;

import java.time.Duration;

/**
 * A caller of a {@link RedisLockClient} waiting for a lock that another holder has, as
 * its {@link RedisLockMonitor} reports it.
 *
 * @param name the logical name of the lock
 * @param key the Redis key of the lock
 * @param thread the name of the waiting thread
 * @param waitingFor how long it has been waiting
 */
public record LockWaiterInfo(String name, String key, String thread, Duration waitingFor) {

}
