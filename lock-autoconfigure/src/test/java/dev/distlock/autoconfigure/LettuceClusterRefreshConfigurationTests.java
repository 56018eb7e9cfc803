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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LettuceClusterRefreshConfiguration}: on a Redis Cluster, Lettuce's
 * adaptive topology refresh pause is lowered to 1 s while it is Lettuce's default, and
 * nothing else changes; a pause the application sets is kept; no trigger (Lettuce 6's
 * default) becomes every trigger unless the application chose; off a cluster nothing
 * changes. The connection factory is inspected, not started against Redis. These run on
 * the main build's Lettuce 7; lock-boot-compat runs the Lettuce 6 path on Spring Boot
 * 4.0.
 */
class LettuceClusterRefreshConfigurationTests {

	private static final String[] CLUSTER = { "spring.data.redis.cluster.nodes=127.0.0.1:1,127.0.0.1:2",
			"spring.data.redis.connect-timeout=3s", "distlock.store=in-memory" };

	private final ApplicationContextRunner withDistlock = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(DataRedisAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	private final ApplicationContextRunner bootAlone = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class));

	@Test
	void lettucesDefaultIsTheLongerPause() {
		assertThat(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION)
			.isGreaterThan(Duration.ofSeconds(1));
	}

	@Test
	void clusterGetsTheOneSecondPauseAndKeepsEveryOtherOption() {
		ClientOptions boot = clientOptions(this.bootAlone, CLUSTER);
		ClientOptions distlock = clientOptions(this.withDistlock, CLUSTER);
		assertThat(boot).isInstanceOf(ClusterClientOptions.class);
		assertThat(distlock).isInstanceOf(ClusterClientOptions.class);
		ClusterTopologyRefreshOptions refresh = ((ClusterClientOptions) distlock).getTopologyRefreshOptions();
		assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
		assertThat(refresh.getAdaptiveRefreshTriggers()).as("Boot enables every adaptive trigger by default")
			.containsExactlyInAnyOrder(RefreshTrigger.values());
		assertSameExceptThePause((ClusterClientOptions) boot, (ClusterClientOptions) distlock);
	}

	@Test
	void refreshPropertiesAreKept() {
		String[] properties = { CLUSTER[0], CLUSTER[1], CLUSTER[2],
				"spring.data.redis.lettuce.cluster.refresh.period=15s",
				"spring.data.redis.lettuce.cluster.refresh.dynamic-refresh-sources=false",
				"spring.data.redis.lettuce.cluster.refresh.adaptive=false" };
		ClusterClientOptions boot = (ClusterClientOptions) clientOptions(this.bootAlone, properties);
		ClusterClientOptions distlock = (ClusterClientOptions) clientOptions(this.withDistlock, properties);
		ClusterTopologyRefreshOptions refresh = distlock.getTopologyRefreshOptions();
		assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
		assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(15));
		assertThat(refresh.useDynamicRefreshSources()).isFalse();
		assertThat(refresh.getAdaptiveRefreshTriggers()).as("what Boot made of adaptive=false")
			.isEqualTo(boot.getTopologyRefreshOptions().getAdaptiveRefreshTriggers());
		assertSameExceptThePause(boot, distlock);
	}

	@Test
	void pauseSetByTheApplicationIsKept() {
		LettuceClientOptionsBuilderCustomizer own = (builder) -> ((ClusterClientOptions.Builder) builder)
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.adaptiveRefreshTriggersTimeout(Duration.ofSeconds(10))
				.build());
		ClusterClientOptions distlock = (ClusterClientOptions) clientOptions(
				this.withDistlock.withBean(LettuceClientOptionsBuilderCustomizer.class, () -> own), CLUSTER);
		assertThat(distlock.getTopologyRefreshOptions().getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void pauseSetBeforeDistlockRunsIsKept() {
		ClusterClientOptions.Builder builder = ClusterClientOptions.builder()
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.adaptiveRefreshTriggersTimeout(Duration.ofSeconds(7))
				.build());
		LettuceClusterRefreshConfiguration.shortenAdaptiveRefreshPause(builder, false);
		assertThat(builder.build().getTopologyRefreshOptions().getAdaptiveRefreshTimeout())
			.isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void noTriggerAndNoChoiceGetsEveryTrigger() {
		// What Spring Boot 4.0 builds by default: Lettuce 6 has no adaptive trigger.
		ClusterClientOptions.Builder builder = ClusterClientOptions.builder()
			.topologyRefreshOptions(
					ClusterTopologyRefreshOptions.builder().disableAllAdaptiveRefreshTriggers().build());
		LettuceClusterRefreshConfiguration.shortenAdaptiveRefreshPause(builder, false);
		ClusterTopologyRefreshOptions refresh = builder.build().getTopologyRefreshOptions();
		assertThat(refresh.getAdaptiveRefreshTriggers()).containsExactlyInAnyOrder(RefreshTrigger.values());
		assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void noTriggerChosenByThePropertyStaysSo() {
		// Spring Boot 4.0 with spring.data.redis.lettuce.cluster.refresh.adaptive=false.
		ClusterClientOptions.Builder builder = ClusterClientOptions.builder()
			.topologyRefreshOptions(
					ClusterTopologyRefreshOptions.builder().disableAllAdaptiveRefreshTriggers().build());
		LettuceClusterRefreshConfiguration.shortenAdaptiveRefreshPause(builder, true);
		ClusterTopologyRefreshOptions refresh = builder.build().getTopologyRefreshOptions();
		assertThat(refresh.getAdaptiveRefreshTriggers()).isEmpty();
		assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void lettuce7CanDropTheTriggersItsBuilderStartsWith() {
		assertThat(LettuceClusterRefreshConfiguration.TRIGGERS_CAN_BE_DISABLED).isTrue();
	}

	@Test
	void noEffectOffACluster() {
		String[] standalone = { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=1",
				"spring.data.redis.connect-timeout=3s", "distlock.store=in-memory" };
		ClientOptions boot = clientOptions(this.bootAlone, standalone);
		ClientOptions distlock = clientOptions(this.withDistlock, standalone);
		assertThat(distlock).isNotInstanceOf(ClusterClientOptions.class);
		assertSame(boot, distlock, COMMON);
	}

	private static final List<Function<ClientOptions, Object>> COMMON = List.of(ClientOptions::isAutoReconnect,
			ClientOptions::getDisconnectedBehavior, ClientOptions::getProtocolVersion,
			ClientOptions::getRequestQueueSize, ClientOptions::isSuspendReconnectOnProtocolFailure,
			(options) -> options.getSocketOptions().getConnectTimeout(),
			(options) -> options.getSocketOptions().isKeepAlive(),
			(options) -> options.getTimeoutOptions().isTimeoutCommands(),
			(options) -> options.getTimeoutOptions().isApplyConnectionTimeout(),
			(options) -> options.getSslOptions().getClass(), ClientOptions::isPingBeforeActivateConnection);

	private static void assertSameExceptThePause(ClusterClientOptions boot, ClusterClientOptions distlock) {
		assertSame(boot, distlock, COMMON);
		assertThat(distlock.getMaxRedirects()).isEqualTo(boot.getMaxRedirects());
		assertThat(distlock.isValidateClusterNodeMembership()).isEqualTo(boot.isValidateClusterNodeMembership());
		ClusterTopologyRefreshOptions expected = boot.getTopologyRefreshOptions();
		ClusterTopologyRefreshOptions actual = distlock.getTopologyRefreshOptions();
		assertThat(actual.getAdaptiveRefreshTriggers()).isEqualTo(expected.getAdaptiveRefreshTriggers());
		assertThat(actual.isCloseStaleConnections()).isEqualTo(expected.isCloseStaleConnections());
		assertThat(actual.useDynamicRefreshSources()).isEqualTo(expected.useDynamicRefreshSources());
		assertThat(actual.isPeriodicRefreshEnabled()).isEqualTo(expected.isPeriodicRefreshEnabled());
		assertThat(actual.getRefreshPeriod()).isEqualTo(expected.getRefreshPeriod());
		assertThat(actual.getRefreshTriggersReconnectAttempts())
			.isEqualTo(expected.getRefreshTriggersReconnectAttempts());
	}

	private static void assertSame(ClientOptions boot, ClientOptions distlock,
			List<Function<ClientOptions, Object>> getters) {
		for (Function<ClientOptions, Object> getter : getters) {
			assertThat(getter.apply(distlock)).isEqualTo(getter.apply(boot));
		}
	}

	private static ClientOptions clientOptions(ApplicationContextRunner runner, String... properties) {
		ClientOptions[] options = new ClientOptions[1];
		runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasNotFailed();
			options[0] = clientOptions(context);
		});
		return options[0];
	}

	private static ClientOptions clientOptions(ApplicationContext context) {
		return context.getBean(LettuceConnectionFactory.class)
			.getClientConfiguration()
			.getClientOptions()
			.orElseThrow();
	}

}
