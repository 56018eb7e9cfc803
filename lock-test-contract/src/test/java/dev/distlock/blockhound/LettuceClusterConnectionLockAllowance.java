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

package dev.distlock.blockhound;

import java.util.Arrays;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Allows the waits for the state lock of Lettuce's
 * {@code PooledClusterConnectionProvider}, a {@code ReentrantLock} that Lettuce takes on
 * an event loop once a connection to a cluster node is open, to set it up (auto-flush,
 * push listener) and to cache it for its slots. An event loop parks there for the moment
 * another thread holds the lock, such as another event loop setting up another node's
 * connection at the same time. BlockHound reports that as {@code Unsafe#park} and throws,
 * and Lettuce then fails the node's connection: a lock on a cluster failed with "Redis
 * connection failed" (caused by "Unable to connect to 127.0.0.1:…", caused by the
 * {@code BlockingOperationError} in {@code NodeConnectionPostProcessor}) in the cluster
 * contract now and then. The lock is Lettuce's, held for a few field writes, and runs no
 * code of distlock.
 * <p>
 * Only the three lambdas of Lettuce 7.5 that take the lock are allowed, by name (their
 * other lambdas send commands or complete futures, whose callbacks may be distlock's). A
 * Lettuce that numbers them otherwise fails the installation, naming the method to look
 * for again.
 */
public final class LettuceClusterConnectionLockAllowance implements BlockHoundIntegration {

	private static final String PROVIDER = "io.lettuce.core.cluster.PooledClusterConnectionProvider";

	private static final String POST_PROCESSOR = PROVIDER + "$NodeConnectionPostProcessor";

	@Override
	public void applyTo(BlockHound.Builder builder) {
		allow(builder, POST_PROCESSOR, "lambda$apply$4");
		allow(builder, PROVIDER, "lambda$getWriteConnection$1");
		allow(builder, PROVIDER, "lambda$getReadConnection$5");
	}

	private void allow(BlockHound.Builder builder, String className, String methodName) {
		Class<?> type;
		try {
			type = Class.forName(className, false, getClass().getClassLoader());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(className + " is gone from Lettuce: find where its cluster connection "
					+ "provider now takes its state lock on an event loop, and allow the wait there", ex);
		}
		if (Arrays.stream(type.getDeclaredMethods()).noneMatch((method) -> method.getName().equals(methodName))) {
			throw new IllegalStateException(className + " has no method " + methodName + " any more: find "
					+ "(javap -c -p) which of its lambdas now takes the provider's stateLock, and allow that one");
		}
		builder.allowBlockingCallsInside(className, methodName);
	}

}
