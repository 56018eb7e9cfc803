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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import dev.distlock.LockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for a {@link RedisLockClient} built, as an application would build
 * one, through its public builder, on a connection of its own to the shared test Redis; a
 * subclass configures the builder.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRedisContractTests extends AbstractLockClientContractTests {

	private ContractRedisClient redis;

	/**
	 * Sets what the client under test does differently from the builder's defaults.
	 * @param builder the builder of the client
	 */
	abstract void configure(RedisLockClientBuilder builder);

	@BeforeAll
	void start() {
		this.redis = ContractRedisClient.start(this::configure);
	}

	@AfterAll
	void stop() {
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Override
	protected LockClient client() {
		return this.redis.client;
	}

}
