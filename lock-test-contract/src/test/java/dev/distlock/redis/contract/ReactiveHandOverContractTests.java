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

package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The reactive lock contract for a client as auto-configured: waiters queued in Redis and
 * handed the lock by release messages, and auto-renewing leases (short ones here, renewed
 * every second) for calls without a lease time.
 */
class ReactiveHandOverContractTests extends AbstractReactiveRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

}
