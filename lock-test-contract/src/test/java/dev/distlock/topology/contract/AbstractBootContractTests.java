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

package dev.distlock.topology.contract;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for the {@link LockClient} that Spring Boot auto-configures from a
 * user's properties: the connection to a Redis deployment, and the {@code distlock.*}
 * settings of a variant (waiting by release messages or by backoff, locks passed between
 * the instance's threads or not).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractBootContractTests extends AbstractLockClientContractTests {

	private ConfigurableApplicationContext application;

	/**
	 * Returns the properties that connect the application to the deployment under test.
	 * @return the properties, as {@code name=value}
	 */
	abstract List<String> connection();

	/**
	 * Returns the {@code distlock.*} settings of the variant under test.
	 * @return the settings, as {@code name=value}
	 */
	abstract String[] settings();

	@BeforeAll
	void startApplication() {
		this.application = LockApplications.start(connection(), settings());
	}

	@AfterAll
	void stopApplication() {
		if (this.application != null) {
			this.application.close();
		}
	}

	@Override
	protected LockClient client() {
		return this.application.getBean(LockClient.class);
	}

}
