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

package dev.distlock.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * Says once, at startup, that {@code distlock.enabled=false} leaves
 * {@link dev.distlock.DistributedLock @DistributedLock} methods without any lock, so that
 * a switch left off by mistake does not go unnoticed.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "distlock.enabled", havingValue = false)
public final class DistributedLockDisabledAutoConfiguration {

	private static final Log logger = LogFactory.getLog(DistributedLockDisabledAutoConfiguration.class);

	DistributedLockDisabledAutoConfiguration() {
		logger.info("distlock.enabled=false: @DistributedLock methods run without any lock");
	}

}
