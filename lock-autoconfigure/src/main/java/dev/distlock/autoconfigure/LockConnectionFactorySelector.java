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

import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.distlock.DistributedLockConfigurationException;

/**
 * Chooses the {@link RedisConnectionFactory} distlock uses, by Spring Boot's convention:
 * the one annotated with
 * {@link DistributedLockConnectionFactory @DistributedLockConnectionFactory}, else the
 * only one or the {@code @Primary} one. Several candidates and none of them chosen fail
 * with a message naming them and what to do.
 */
final class LockConnectionFactorySelector {

	private static final String QUALIFIER = "@" + DistributedLockConnectionFactory.class.getSimpleName();

	private LockConnectionFactorySelector() {
	}

	/**
	 * Returns the chosen factory.
	 * @param qualified the factories annotated with
	 * {@link DistributedLockConnectionFactory}
	 * @param all every factory
	 * @return the factory distlock uses
	 * @throws DistributedLockConfigurationException if there are several candidates and
	 * none is chosen; Spring's own exception is not its cause, so that Spring Boot
	 * reports this message rather than its generic advice for several beans
	 */
	static RedisConnectionFactory select(ObjectProvider<RedisConnectionFactory> qualified,
			ObjectProvider<RedisConnectionFactory> all) {
		RedisConnectionFactory dedicated;
		try {
			dedicated = qualified.getIfAvailable();
		}
		catch (NoUniqueBeanDefinitionException ex) {
			throw new DistributedLockConfigurationException("Several RedisConnectionFactory beans are annotated "
					+ "with " + QUALIFIER + " (" + names(ex) + ")", "Annotate only the one distlock should use.");
		}
		if (dedicated != null) {
			return dedicated;
		}
		try {
			return all.getObject();
		}
		catch (NoUniqueBeanDefinitionException ex) {
			throw new DistributedLockConfigurationException(
					"distlock cannot tell which RedisConnectionFactory to " + "use: there are "
							+ ex.getNumberOfBeansFound() + " (" + names(ex) + ") and none is @Primary or "
							+ "annotated with " + QUALIFIER,
					"Mark the one the application uses by default @Primary, or "
							+ "annotate the one distlock should use with @"
							+ DistributedLockConnectionFactory.class.getName() + ".");
		}
	}

	private static String names(NoUniqueBeanDefinitionException ex) {
		return (ex.getBeanNamesFound() != null) ? String.join(", ", ex.getBeanNamesFound()) : "names unknown";
	}

}
