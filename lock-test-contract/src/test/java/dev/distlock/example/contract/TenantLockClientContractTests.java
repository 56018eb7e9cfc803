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

package dev.distlock.example.contract;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import dev.distlock.LockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;
import dev.distlock.test.spring.WithRedisTestServer;

/**
 * The lock contract checked as a user checks a wrapper of their own: the suite run
 * against {@link TenantLockClient} around the auto-configured client of a Spring Boot
 * test connected to the test Redis by {@link WithRedisTestServer}.
 */
@SpringBootTest
@WithRedisTestServer
class TenantLockClientContractTests extends AbstractLockClientContractTests {

	@Autowired
	private LockClient lockClient;

	@Override
	protected LockClient client() {
		return new TenantLockClient("acme", this.lockClient);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
