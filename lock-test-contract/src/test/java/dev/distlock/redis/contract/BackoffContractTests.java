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
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * The lock contract for a client whose waiters only retry, with the standard backoff: no
 * release messages.
 */
class BackoffContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(false)
			.waiter(JitteredBackoffWaiter.standard())
			.defaultOptions(new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

}
