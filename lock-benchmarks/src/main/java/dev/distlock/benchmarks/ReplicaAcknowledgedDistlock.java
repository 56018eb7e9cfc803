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

package dev.distlock.benchmarks;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

import dev.distlock.autoconfigure.DistributedLockProperties;

/**
 * The extra distlock contender of the cluster run, {@value #ID}: the programmatic client
 * of an application that also asks for every grant to reach one replica before it counts
 * ({@value #PROPERTY}, so {@code WAIT 1} with the default
 * {@code distlock.replication.ack-timeout}). Its context is otherwise the one
 * {@link DistlockFactory} builds.
 * <p>
 * The contender is left out, and the run says why, where the build on the class path has
 * no such property (as {@link DistlockFactory} tells what a build supports, for
 * {@code BENCH_DISTLOCK_REF} builds), or where the client refuses to start on the target:
 * a build that does not support replica acknowledgement on a Redis Cluster fails its
 * client with an {@link IllegalStateException} naming the property.
 */
final class ReplicaAcknowledgedDistlock {

	static final String ID = "distlock-wait1";

	static final String NAME = "distlock client, WAIT 1 replica";

	static final String PROPERTY = "distlock.replication.min-replicas-acked=1";

	private ReplicaAcknowledgedDistlock() {
	}

	/**
	 * Creates the contender: the {@code LockClient} of an application context of its own.
	 * @param target the Redis to lock on
	 * @param started told about the context, which the caller closes
	 * @param leftOut told why, if the contender cannot run on the target with this build
	 * @return the contender, or {@code null} if it cannot run
	 */
	static @Nullable ExplicitContender create(RedisTarget target, Consumer<ConfigurableApplicationContext> started,
			Consumer<String> leftOut) {
		if (!DistlockFactory.hasMethod(DistributedLockProperties.class, "getReplication")) {
			leftOut.accept(ID + " (" + NAME + ") left out: this build has no distlock.replication.min-replicas-acked");
			return null;
		}
		ConfigurableApplicationContext context;
		try {
			context = DistlockFactory.builder(target).properties(PROPERTY).run();
		}
		catch (RuntimeException ex) {
			Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
			if (!(cause instanceof IllegalStateException)) {
				throw ex;
			}
			leftOut.accept(ID + " (" + NAME + ") left out: the client refused to start: " + cause.getMessage());
			return null;
		}
		started.accept(context);
		return DistlockFactory.client(context, NAME);
	}

}
