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

package dev.distlock.compat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import dev.distlock.test.redis.RedisSentinelDeployment;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServer;

/**
 * {@link CompatApplication} under Sentinel (a master, 2 replicas, 3 Sentinels): the
 * checks of every topology, a second instance whose grants a replica acknowledges
 * ({@code WAIT}) counting with the first, and a failover: after the master is killed and
 * a replica promoted, locks work again.
 */
class SentinelTests extends CompatApplicationChecks {

	private RedisSentinelDeployment sentinel;

	@Override
	Map<String, Object> startRedis() {
		this.sentinel = RedisSentinelDeployment.start();
		return Map.of("spring.data.redis.sentinel.master", this.sentinel.masterName(),
				"spring.data.redis.sentinel.nodes", this.sentinel.sentinelNodes(), "spring.data.redis.timeout", "2s");
	}

	@Override
	void stopRedis() {
		if (this.sentinel != null) {
			this.sentinel.close();
		}
	}

	@Override
	RedisTestServer serverOf(String key) {
		return this.sentinel.master();
	}

	@Override
	boolean shardedReleaseChannels() {
		return false;
	}

	@Test
	@Order(9)
	void twoInstancesCountExactly() throws Exception {
		twoInstancesCountExactlyWithGrantsAcknowledgedByAReplica();
	}

	@Test
	@Order(10)
	void locksWorkAgainAfterTheMasterFailsOver() {
		RedisServerProcess master = this.sentinel.master();
		this.sentinel.kill(master);
		this.sentinel.awaitPromotion(Duration.ofSeconds(20));
		awaitLockingAgain(application(), "failover", Duration.ofSeconds(20));
	}

}
