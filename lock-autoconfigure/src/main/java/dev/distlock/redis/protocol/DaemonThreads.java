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

package dev.distlock.redis.protocol;

import java.util.concurrent.ThreadFactory;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Creates the background threads of a client: daemon threads, so that a client that is
 * never closed does not keep the JVM alive, named after their job
 * ({@code distlock-renewal-1}, ...).
 */
public final class DaemonThreads {

	private DaemonThreads() {
	}

	/**
	 * Returns a factory of daemon threads.
	 * @param job what the threads do, such as {@code "distlock-renewal"}
	 * @return the factory
	 */
	public static ThreadFactory named(String job) {
		CustomizableThreadFactory factory = new CustomizableThreadFactory(job + "-");
		factory.setDaemon(true);
		return factory;
	}

}
