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

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Says what to do when a bean has {@link dev.distlock.DistributedLock @DistributedLock}
 * methods but there is no {@link dev.distlock.LockClient LockClient}: configure Redis
 * only if there really is no {@link RedisConnectionFactory}.
 */
final class MissingLockClientAdvice {

	private MissingLockClientAdvice() {
	}

	/**
	 * Returns the advice for the application's beans.
	 * @param beanFactory the application's beans
	 * @return what to do
	 */
	static String advise(ListableBeanFactory beanFactory) {
		String[] factories = beanFactory.getBeanNamesForType(RedisConnectionFactory.class, true, false);
		if (factories.length == 0) {
			return "configure Redis (spring.data.redis.*) so that distlock can create one, or define a LockClient bean";
		}
		return "there is a RedisConnectionFactory (" + String.join(", ", factories) + ") but distlock's "
				+ "auto-configuration did not find one when it ran: define it in the application's own "
				+ "configuration, or order the auto-configuration that defines it before "
				+ DistributedLockAutoConfiguration.class.getSimpleName() + ", or define a LockClient bean";
	}

}
