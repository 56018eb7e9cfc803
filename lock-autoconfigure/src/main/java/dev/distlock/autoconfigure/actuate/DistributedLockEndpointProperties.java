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

package dev.distlock.autoconfigure.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code distlock} actuator endpoint.
 */
@ConfigurationProperties("distlock.endpoint")
public class DistributedLockEndpointProperties {

	private final ForceRelease forceRelease = new ForceRelease();

	public ForceRelease getForceRelease() {
		return this.forceRelease;
	}

	/**
	 * Releasing locks by force through the endpoint.
	 */
	public static class ForceRelease {

		/**
		 * Whether the distlock endpoint offers a delete operation that releases a lock
		 * this instance holds, while its holder still runs.
		 */
		private boolean enabled;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
