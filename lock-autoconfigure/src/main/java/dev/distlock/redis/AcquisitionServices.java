/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
