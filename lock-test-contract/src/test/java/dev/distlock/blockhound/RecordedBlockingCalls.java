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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * The blocking calls BlockHound found on non-blocking threads, recorded as well as
 * thrown: a {@link BlockingOperationError} thrown where nobody reports it (a Netty
 * handler, a {@code doFinally}, a background release) would otherwise go unnoticed, so
 * the reactive contract checks after each test that none was recorded. Loaded by
 * BlockHound's {@code ServiceLoader} when its JUnit Platform listener installs it.
 */
public final class RecordedBlockingCalls implements BlockHoundIntegration {

	private static final List<String> calls = new CopyOnWriteArrayList<>();

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.blockingMethodCallback((method) -> {
			BlockingOperationError error = new BlockingOperationError(method);
			calls.add(Thread.currentThread().getName() + ": " + error.getMessage());
			throw error;
		});
	}

	/**
	 * Runs after the other integrations, so that its callback is the one installed.
	 */
	@Override
	public int getPriority() {
		return Integer.MAX_VALUE;
	}

	/**
	 * Returns the calls recorded since they were last drained, and forgets them.
	 * @return each call's thread and method
	 */
	public static List<String> drain() {
		List<String> recorded = List.copyOf(calls);
		calls.removeAll(recorded);
		return recorded;
	}

}
