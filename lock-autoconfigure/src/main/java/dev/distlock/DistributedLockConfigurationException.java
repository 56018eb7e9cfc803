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

package dev.distlock;

/**
 * Thrown at startup when distlock cannot be set up as the application is configured:
 * locked methods without a {@link LockClient} (no Redis connection), several Redis
 * connections and none chosen for locks, or a Spring Boot version distlock does not
 * support. It keeps what is wrong apart from what to do, so that Spring Boot's failure
 * report shows both.
 */
public class DistributedLockConfigurationException extends DistributedLockException {

	private final String description;

	private final String action;

	/**
	 * Creates the exception.
	 * @param description what is wrong
	 * @param action what to do about it
	 */
	public DistributedLockConfigurationException(String description, String action) {
		super(description + ". " + action, null);
		this.description = description;
		this.action = action;
	}

	/**
	 * Returns what is wrong.
	 * @return the description
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * Returns what to do about it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
