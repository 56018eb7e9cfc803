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

package dev.distlock.redlock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A lock that a {@link RedLockClient} holds, for a thread or for reactive work, as the
 * actuator endpoint lists it. The owner token is never part of it.
 *
 * @param name the logical name of the lock
 * @param key the key of the lock on the nodes, with the configured prefix
 * @param acquiredAt when the first request of the granting attempt was sent, by this
 * machine's clock
 * @param heldFor how long the lock has been held, counted from then
 * @param validityRemaining how long the hold stays valid without a further renewal
 * confirmed by a majority, by this process's count ({@code send time + lease − drift});
 * zero once it has run out
 * @param autoRenewing whether the lease is renewed automatically
 * @param fencingToken the fencing token of the grant, stored on a majority
 * @param grantedBy the nodes that had granted the lock when the attempt was decided, by
 * their property and server, in the order of {@code distlock.redlock.nodes}
 * @param leaseLost whether the hold's validity ran out or a majority no longer held it
 */
public record RedLockHoldInfo(String name, String key, Instant acquiredAt, Duration heldFor, Duration validityRemaining,
		boolean autoRenewing, long fencingToken, List<String> grantedBy, boolean leaseLost) {

}
