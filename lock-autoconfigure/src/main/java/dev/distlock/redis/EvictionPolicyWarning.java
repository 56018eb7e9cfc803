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

package dev.distlock.redis;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.redis.monitor.EvictionPolicy;
import dev.distlock.redis.protocol.DaemonThreads;

/**
 * Warns once, when the client first starts, if Redis may evict lock keys
 * ({@link EvictionPolicy#mayEvictLockKeys()}): a lock key evicted while held lets another
 * client be granted the lock. It asks on a thread of its own, so that startup never waits
 * for Redis; a Redis that cannot be asked (not reachable yet, or {@code INFO} not
 * permitted) is left unreported, at debug level, and the health check still shows the
 * policy once it can.
 */
final class EvictionPolicyWarning {

	private static final Log logger = LogFactory.getLog(EvictionPolicyWarning.class);

	private final Supplier<List<EvictionPolicy>> policies;

	private final AtomicBoolean started = new AtomicBoolean();

	/**
	 * Creates the warning of one client.
	 * @param policies reads the eviction policy of each Redis server that holds locks
	 */
	EvictionPolicyWarning(Supplier<List<EvictionPolicy>> policies) {
		this.policies = policies;
	}

	/** Asks Redis in the background, the first time only. */
	void start() {
		if (this.started.compareAndSet(false, true)) {
			DaemonThreads.named("distlock-eviction-check").newThread(this::check).start();
		}
	}

	/** Asks Redis now, on the calling thread, and warns if it may evict lock keys. */
	void check() {
		try {
			for (EvictionPolicy policy : this.policies.get()) {
				if (policy.mayEvictLockKeys()) {
					logger.warn(policy.advice());
				}
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Could not read the maxmemory-policy of Redis (INFO memory)", ex);
		}
	}

}
