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

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The lock contract for locks taken through the multi-key methods of the Redis client,
 * each as a list of one key: taken at once by one script while free, else through the
 * queue and hand-over, with local passing on as auto-configured.
 */
class MultiKeyContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.maxLocalPasses(RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

	@Override
	protected LockClient client() {
		return new KeyListLockClient(super.client());
	}

}
