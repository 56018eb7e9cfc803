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

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.autoconfigure.DistributedLockDisabledAutoConfiguration;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link CompatApplication} on a single {@code redis-server} (the one on {@code PATH}):
 * the checks of every topology, an instance with {@code distlock.enabled=false}, and an
 * outage: while Redis is down a locked call answers {@code 503} (never {@code 409}) and
 * health is {@code DOWN}; after it is back, Lettuce reconnects (with the delay distlock
 * caps) and locks work again.
 */
class SingleServerTests extends CompatApplicationChecks {

	private RedisServerProcess server;

	@Override
	Map<String, Object> startRedis() {
		this.server = RedisServerProcess.startOnFreePort();
		return Map.of("spring.data.redis.host", this.server.host(), "spring.data.redis.port", this.server.port(),
				"spring.data.redis.timeout", "2s");
	}

	@Override
	void stopRedis() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Override
	RedisTestServer serverOf(String key) {
		return this.server;
	}

	@Override
	boolean shardedReleaseChannels() {
		return false;
	}

	@Test
	@Order(9)
	void switchedOffItStartsAndSaysSo() throws Exception {
		try (RunningApplication unlocked = startInstance(Map.of("distlock.enabled", false))) {
			assertThat(unlocked.context().getBeansOfType(LockClient.class)).isEmpty();
			assertThat(unlocked.context().getBeansOfType(DistributedLockDisabledAutoConfiguration.class)).hasSize(1);
			assertThat(unlocked.post("/stock/unlocked").statusCode()).isEqualTo(200);
		}
	}

	@Test
	@Order(10)
	void outageAnswersUnavailableAndLocksWorkAgainOnceRedisIsBack() throws Exception {
		this.server.stop();
		try {
			HttpResponse<String> unavailable = application().post("/stock/outage");
			assertThat(unavailable.statusCode()).as(unavailable.body()).isEqualTo(503);
			assertThat(json(unavailable).path("type").asString())
				.isEqualTo("https://distlock.dev/problems/lock-unavailable");
			HttpResponse<String> health = application().get("/actuator/health");
			assertThat(json(health).path("components").path("distlock").path("status").asString()).as(health.body())
				.isEqualTo("DOWN");
		}
		finally {
			this.server.start();
		}
		await().atMost(WAIT).until(() -> application().post("/stock/outage").statusCode() == 200);
		HttpResponse<String> health = application().get("/actuator/health");
		assertThat(json(health).path("status").asString()).as(health.body()).isEqualTo("UP");
	}

}
