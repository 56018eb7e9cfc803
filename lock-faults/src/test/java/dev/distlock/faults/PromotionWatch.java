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

package dev.distlock.faults;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * Asks the replicas of a killed master for their role every 5 ms, on a thread of its own,
 * until one of them answers that it is a master, and records when the last round that
 * found them all replicas was sent. Until then no node could have served the master's
 * slots, so this is a lower bound of the promotion that no polling delay can move past
 * it; {@code RedisClusterDeployment.awaitPromotion}, which also waits for every node to
 * report the cluster OK, returns later.
 */
final class PromotionWatch {

	private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

	private final Thread thread;

	private volatile long lastUnpromoted;

	private volatile RuntimeException failure;

	/**
	 * Starts watching.
	 * @param replicas the replicas of the killed master
	 * @param from the {@link System#nanoTime()} of the kill, the first lower bound
	 */
	PromotionWatch(List<RedisServerProcess> replicas, long from) {
		if (replicas.isEmpty()) {
			throw new IllegalArgumentException("The killed master has no replica to promote");
		}
		this.lastUnpromoted = from;
		this.thread = new Thread(() -> {
			try {
				while (true) {
					long sent = System.nanoTime();
					if (replicas.stream().anyMatch(PromotionWatch::isMaster)) {
						return;
					}
					this.lastUnpromoted = sent;
					if (sent - from > TIMEOUT_NANOS) {
						throw new IllegalStateException("No replica of the killed master was promoted within 30 s");
					}
					Pause.millis(5);
				}
			}
			catch (RuntimeException ex) {
				this.failure = ex;
			}
		}, "promotion-watch");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private static boolean isMaster(RedisServerProcess replica) {
		return RedisAdminCommands.text(replica, "ROLE").startsWith("[master");
	}

	/**
	 * Waits until a replica answered that it is a master, and returns when the last round
	 * of questions that found none was sent.
	 * @return a {@link System#nanoTime()} before which no replica had been promoted
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a replica could not be asked, or none was promoted
	 * within 30 s of the kill
	 */
	long lastUnpromoted() throws InterruptedException {
		this.thread.join();
		if (this.failure != null) {
			throw new IllegalStateException("Could not tell when the killed master's replica was promoted",
					this.failure);
		}
		return this.lastUnpromoted;
	}

}
