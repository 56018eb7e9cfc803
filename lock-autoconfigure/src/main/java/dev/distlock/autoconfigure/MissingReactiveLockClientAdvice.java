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

import java.lang.reflect.Method;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockClient;
import dev.distlock.autoconfigure.DistributedLockProperties.Store;
import dev.distlock.redis.RedisLockClient;

/**
 * Says why a {@link dev.distlock.DistributedLock @DistributedLock} method returning
 * {@code Mono}, {@code Flux} or {@code CompletionStage} has no
 * {@link dev.distlock.reactive.ReactiveLockClient ReactiveLockClient} to lock it, naming
 * the method and the property or dependency that decided it, and what to do.
 */
final class MissingReactiveLockClientAdvice {

	private static final String MIN_REPLICAS_ACKED = "distlock.replication.min-replicas-acked";

	private MissingReactiveLockClientAdvice() {
	}

	/**
	 * Returns the failure of a method that cannot be locked.
	 * @param method the locked method
	 * @param beanFactory the application's beans
	 * @param environment the application's properties
	 * @return the failure to report at startup
	 */
	static InvalidLockDefinitionException advise(Method method, ListableBeanFactory beanFactory,
			Environment environment) {
		String problem = "it returns " + method.getReturnType().getSimpleName() + ", whose lock is held by a "
				+ "ReactiveLockClient until its work ends, and there is none: ";
		Binder binder = Binder.get(environment);
		if (!ClassUtils.isPresent("reactor.core.publisher.Mono", method.getDeclaringClass().getClassLoader())) {
			return invalid(method, problem + "Reactor is not on the class path",
					"Add io.projectreactor:reactor-core to the application's dependencies.");
		}
		if (binder.bind("distlock.store", Store.class).orElse(Store.REDIS) == Store.IN_MEMORY) {
			return invalid(method, problem + "distlock.store is in-memory, whose locks belong to threads",
					"Test reactive locked methods against Redis (lock-test-support starts a redis-server), "
							+ "or define a ReactiveLockClient bean.");
		}
		BindResult<Integer> acked = binder.bind(MIN_REPLICAS_ACKED, Integer.class);
		if (acked.isBound() && acked.get() > 0) {
			return invalid(method,
					problem + MIN_REPLICAS_ACKED + " is " + acked.get()
							+ ", and reactive grants cannot wait for replicas to acknowledge them",
					"Set " + MIN_REPLICAS_ACKED + " to 0, or lock a method that does its work before returning.");
		}
		String[] clients = beanFactory.getBeanNamesForType(LockClient.class, true, false);
		boolean redis = clients.length == 1 && beanFactory.isTypeMatch(clients[0], RedisLockClient.class);
		if (!redis) {
			return invalid(method,
					problem + "it is only auto-configured beside distlock's own RedisLockClient or RedLockClient",
					"Define a ReactiveLockClient bean, such as a ReactiveRedisLockClient on the RedisLockClient.");
		}
		return invalid(method, problem + "distlock's connection factory has no reactive API",
				"Use Lettuce for distlock's Redis connection, or define a ReactiveLockClient bean.");
	}

	private static InvalidLockDefinitionException invalid(Method method, String problem, String action) {
		return new InvalidLockDefinitionException(method, problem, action, null);
	}

}
