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

import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import io.lettuce.core.cluster.RedisClusterClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.protocol.RedisReachability;

/**
 * Has Lettuce read a Redis Cluster's topology again when a lock command gets no answer,
 * at most once per adaptive refresh pause of the client's options: told of each such
 * command by the client's {@link RedisReachability}.
 * <p>
 * Lettuce refreshes the topology on its own when a command meets a redirection, an
 * unknown node or an uncovered slot, or when it keeps failing to reconnect a connection
 * it had ({@link RefreshTrigger#PERSISTENT_RECONNECTS}). A client that had no connection
 * to a master when it failed (an instance started shortly before, or one that had sent
 * nothing to that master yet) has nothing to reconnect: each command in the master's
 * slots opens a connection to it that is refused at once, no trigger fires, and the
 * client keeps the view in which the dead master serves those slots, long after its
 * replica was promoted, until something else refreshes it (without periodic refresh, more
 * than 20 s in the compatibility checks on Lettuce 7.5). This is the missing trigger: a
 * lock command that Redis did not answer. It is honoured only while the application keeps
 * Lettuce's reconnect trigger, so that an application that turned adaptive refresh off
 * keeps it off.
 * <p>
 * Never blocks its caller, which may be a thread of Lettuce: the refresh runs on the
 * client's own event executors, as Lettuce runs its adaptive refreshes.
 */
final class LettuceTopologyRefresh implements Runnable {

	private static final Log logger = LogFactory.getLog(LettuceTopologyRefresh.class);

	private final LettuceConnectionFactory factory;

	/** When the next refresh may start, by {@link System#nanoTime()}. */
	private final AtomicLong nextNanos = new AtomicLong(System.nanoTime());

	private LettuceTopologyRefresh(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	/**
	 * Returns what to run when a lock command gets no answer: a topology refresh for a
	 * Lettuce connection factory, nothing for others.
	 * @param factory the client's connection factory
	 * @return the refresh
	 */
	static Runnable of(@Nullable RedisConnectionFactory factory) {
		if (factory instanceof LettuceConnectionFactory lettuce) {
			return new LettuceTopologyRefresh(lettuce);
		}
		return () -> {
		};
	}

	/**
	 * Starts a refresh unless one started less than a pause ago. Never throws: it runs
	 * where the failure of a lock command is recorded, which must go on to report that
	 * failure.
	 */
	@Override
	public void run() {
		try {
			refreshSoon();
		}
		catch (RuntimeException ex) {
			// The connection factory stopped (or is not started): nothing to refresh.
			logger.debug("Could not have Lettuce read the Redis Cluster topology again", ex);
		}
	}

	private void refreshSoon() {
		if (!(this.factory.getNativeClient() instanceof RedisClusterClient cluster)
				|| !(cluster.getOptions() instanceof ClusterClientOptions options)) {
			return;
		}
		ClusterTopologyRefreshOptions refresh = options.getTopologyRefreshOptions();
		if (!refresh.getAdaptiveRefreshTriggers().contains(RefreshTrigger.PERSISTENT_RECONNECTS)) {
			return;
		}
		long now = System.nanoTime();
		long next = this.nextNanos.get();
		if (now - next < 0
				|| !this.nextNanos.compareAndSet(next, now + refresh.getAdaptiveRefreshTimeout().toNanos())) {
			return;
		}
		cluster.getResources().eventExecutorGroup().submit(() -> refresh(cluster));
	}

	private static void refresh(RedisClusterClient cluster) {
		logger.debug("A lock command got no answer: reading the Redis Cluster topology again");
		cluster.refreshPartitionsAsync().whenComplete((refreshed, failure) -> {
			if (failure != null) {
				logger.debug("Could not read the Redis Cluster topology again", failure);
			}
		});
	}

}
