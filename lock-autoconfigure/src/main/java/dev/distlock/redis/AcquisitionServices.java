package dev.distlock.redis;

import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * What the attempts of every acquisition of one client use: the commands, the background
 * releases, the cohort of the client's threads (how many fencing tokens to reserve) and
 * the list of waiting callers.
 *
 * @param commands the lock commands
 * @param pending the background releases
 * @param cohort the cohort of the client's threads
 * @param waiting the callers of the client that wait for a lock
 */
record AcquisitionServices(RedisLockCommands commands, PendingReleases pending, LocalCohort cohort,
		WaitingAcquirers waiting) {
}
