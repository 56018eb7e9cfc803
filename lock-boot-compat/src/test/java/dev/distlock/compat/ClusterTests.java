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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.Map;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;

import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CompatApplication} on a Redis Cluster (3 masters, 3 replicas): the checks of
 * every topology (hand-over by a sharded release channel, health of every master), a
 * second instance whose grants a replica acknowledges ({@code WAIT} on the key's master)
 * counting with the first, Lettuce's topology refresh as distlock sets it (on Spring Boot
 * 4.0, whose Lettuce 6 lacks the API distlock uses on 4.1, by the fallback), and a
 * failover: after the master of a key's slot is killed and its replica promoted, the key
 * locks again.
 */
class ClusterTests extends CompatApplicationChecks {

	private RedisClusterDeployment cluster;

	private ApplicationContextRunner bootAlone = new ApplicationContextRunner();

	private ApplicationContextRunner withDistlock = new ApplicationContextRunner();

	@Override
	Map<String, Object> startRedis() {
		this.cluster = RedisClusterDeployment.start();
		// Only the client options are read: the lock store in memory never connects.
		String[] properties = { "spring.data.redis.cluster.nodes=" + this.cluster.clusterNodes(),
				"distlock.store=in-memory" };
		this.bootAlone = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues(properties);
		this.withDistlock = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues(properties);
		return Map.of("spring.data.redis.cluster.nodes", this.cluster.clusterNodes(), "spring.data.redis.timeout",
				"5s");
	}

	@Override
	void stopRedis() {
		if (this.cluster != null) {
			this.cluster.close();
		}
	}

	@Override
	RedisTestServer serverOf(String key) {
		return this.cluster.masterOf(key);
	}

	@Override
	boolean shardedReleaseChannels() {
		return true;
	}

	@Test
	@Order(9)
	void twoInstancesCountExactly() throws Exception {
		twoInstancesCountExactlyWithGrantsAcknowledgedByAReplica();
	}

	@Test
	@Order(10)
	void topologyIsRefreshedOnEveryAdaptiveTriggerAfterAOneSecondPause() {
		System.out.println("COMPAT ClusterTests on Spring Boot " + SpringBootVersion.getVersion()
				+ ": Lettuce's refresh options builder can disable triggers: " + ClassUtils
					.hasMethod(ClusterTopologyRefreshOptions.Builder.class, "disableAllAdaptiveRefreshTriggers"));
		ClusterTopologyRefreshOptions refresh = refreshOptions(application().context());
		assertThat(refresh.getAdaptiveRefreshTriggers()).containsExactlyInAnyOrder(RefreshTrigger.values());
		assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	@Order(11)
	void adaptiveRefreshSwitchedOffByPropertyStaysAsBootSetIt() {
		// Spring Boot 4.0's property: Lettuce 6 then has no adaptive trigger. Spring Boot
		// 4.1
		// has no such property, and Lettuce 7 has every trigger.
		String off = "spring.data.redis.lettuce.cluster.refresh.adaptive=false";
		ClusterTopologyRefreshOptions boot = refreshOptionsOf(this.bootAlone.withPropertyValues(off));
		ClusterTopologyRefreshOptions refresh = refreshOptionsOf(this.withDistlock.withPropertyValues(off));
		assertThat(refresh.getAdaptiveRefreshTriggers()).isEqualTo(boot.getAdaptiveRefreshTriggers());
		assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	@Order(12)
	void keyLocksAgainAfterItsMasterFailsOver() throws Exception {
		String key = "compat:sku:failover";
		RedisServerProcess master = this.cluster.masterOf(key);
		String elsewhere = IntStream.range(0, 100)
			.mapToObj((i) -> "warm-" + i)
			.filter((sku) -> this.cluster.masterOf("compat:sku:" + sku) != master)
			.findFirst()
			.orElseThrow();
		// A fresh instance that knows the topology (it locked on another master) but has
		// no
		// connection to this one: no lost connection tells it of the failover.
		try (RunningApplication instance = startInstance(Map.of())) {
			assertThat(instance.post("/stock/" + elsewhere).statusCode()).isEqualTo(200);
			this.cluster.kill(master);
			this.cluster.awaitPromotion(key, Duration.ofSeconds(20));
			awaitLockingAgain(instance, "failover", Duration.ofSeconds(20));
		}
	}

	private static ClusterTopologyRefreshOptions refreshOptionsOf(ApplicationContextRunner runner) {
		List<ClusterTopologyRefreshOptions> options = new ArrayList<>();
		runner.run((context) -> {
			assertThat(context).hasNotFailed();
			options.add(refreshOptions(context));
		});
		return options.get(0);
	}

	private static ClusterTopologyRefreshOptions refreshOptions(ApplicationContext context) {
		return ((ClusterClientOptions) context.getBean(LettuceConnectionFactory.class)
			.getClientConfiguration()
			.getClientOptions()
			.orElseThrow()).getTopologyRefreshOptions();
	}

}
