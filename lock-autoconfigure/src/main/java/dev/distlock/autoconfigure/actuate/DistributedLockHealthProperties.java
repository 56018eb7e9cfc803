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

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code distlock} health indicator.
 */
@ConfigurationProperties("distlock.health")
public class DistributedLockHealthProperties {

	/**
	 * How long a health request waits for Redis to answer the checks before it reports
	 * DOWN, whatever the command timeout (spring.data.redis.timeout). A check not
	 * answered in time goes on in the background, and no other starts before it ends.
	 */
	private Duration timeout = Duration.ofSeconds(2);

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

}
