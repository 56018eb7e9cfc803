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
import java.util.EnumSet;
import java.util.Set;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Lets Lettuce learn a Redis Cluster's new topology within about a second of a failover.
 * Lettuce refreshes the topology when a command meets a redirection, an unknown node, an
 * uncovered slot or a node it keeps failing to reconnect to (its adaptive triggers), but
 * at most once per
 * {@link ClusterTopologyRefreshOptions#DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION adaptive
 * refresh pause}: the refresh that a killed master triggers comes before its replica is
 * promoted, and the next one may come 5 seconds later (Lettuce 7), so locks in the killed
 * master's slots fail for that long after the promotion. This lowers that pause to
 * {@value #ADAPTIVE_REFRESH_PAUSE_MILLIS} ms, only while it is Lettuce's default: a pause
 * the application set in its own {@link LettuceClientOptionsBuilderCustomizer} (which
 * runs after this one) or {@code ClientOptions} is kept, and so are the periodic refresh
 * of {@code spring.data.redis.lettuce.cluster.refresh.*} and every other option. No
 * trigger fires for a master that the client never had a connection to; for that case the
 * lock client itself has Lettuce refresh when a lock command gets no answer, at most once
 * per this pause.
 * <p>
 * Lettuce 6, which Spring Boot 4.0 manages, has no adaptive trigger by default, and
 * Spring Boot 4.0 enables them only with
 * {@code spring.data.redis.lettuce.cluster.refresh.adaptive=true}: without a trigger,
 * Lettuce does not learn of a promoted replica, and locks in the killed master's slots
 * keep failing. Where no trigger is enabled and that property is not set, every trigger
 * is enabled, as Lettuce 7 (Spring Boot 4.1) does by default; an application that set the
 * property to {@code false} keeps it so.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ LettuceClientOptionsBuilderCustomizer.class, ClusterClientOptions.class })
class LettuceClusterRefreshConfiguration {

	static final long ADAPTIVE_REFRESH_PAUSE_MILLIS = 1000;

	/** Spring Boot 4.0's switch of Lettuce's adaptive triggers (4.1 has none). */
	static final String ADAPTIVE_REFRESH_PROPERTY = "spring.data.redis.lettuce.cluster.refresh.adaptive";

	/**
	 * Whether a new {@link ClusterTopologyRefreshOptions.Builder} can drop the adaptive
	 * triggers it starts with: Lettuce 7 starts with all of them and can; Lettuce 6
	 * starts with none and has no such method.
	 */
	static final boolean TRIGGERS_CAN_BE_DISABLED = ClassUtils.hasMethod(ClusterTopologyRefreshOptions.Builder.class,
			"disableAllAdaptiveRefreshTriggers");

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	LettuceClientOptionsBuilderCustomizer distributedLockClusterTopologyRefresh(Environment environment) {
		boolean adaptiveRefreshSet = Binder.get(environment).bind(ADAPTIVE_REFRESH_PROPERTY, Boolean.class).isBound();
		return (builder) -> shortenAdaptiveRefreshPause(builder, adaptiveRefreshSet);
	}

	/**
	 * Lowers the adaptive refresh pause of a cluster client's options, and enables every
	 * adaptive trigger where none is and the application did not choose.
	 * @param builder the client options being built
	 * @param adaptiveRefreshSet whether the application set
	 * {@link #ADAPTIVE_REFRESH_PROPERTY}
	 */
	static void shortenAdaptiveRefreshPause(ClientOptions.Builder builder, boolean adaptiveRefreshSet) {
		if (!(builder instanceof ClusterClientOptions.Builder cluster)) {
			return;
		}
		ClusterTopologyRefreshOptions current = cluster.build().getTopologyRefreshOptions();
		if (!current.getAdaptiveRefreshTimeout()
			.equals(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION)) {
			return;
		}
		Set<RefreshTrigger> triggers = current.getAdaptiveRefreshTriggers();
		if (triggers.isEmpty() && !adaptiveRefreshSet) {
			triggers = EnumSet.allOf(RefreshTrigger.class);
		}
		ClusterTopologyRefreshOptions.Builder refresh = ClusterTopologyRefreshOptions.builder();
		if (TRIGGERS_CAN_BE_DISABLED) {
			// Lettuce 7's builder starts with every trigger; Lettuce 6's with none.
			refresh.disableAllAdaptiveRefreshTriggers();
		}
		refresh.adaptiveRefreshTriggersTimeout(Duration.ofMillis(ADAPTIVE_REFRESH_PAUSE_MILLIS))
			.closeStaleConnections(current.isCloseStaleConnections())
			.dynamicRefreshSources(current.useDynamicRefreshSources())
			.enablePeriodicRefresh(current.isPeriodicRefreshEnabled())
			.refreshPeriod(current.getRefreshPeriod())
			.refreshTriggersReconnectAttempts(current.getRefreshTriggersReconnectAttempts());
		if (!triggers.isEmpty()) {
			refresh.enableAdaptiveRefreshTrigger(triggers.toArray(RefreshTrigger[]::new));
		}
		cluster.topologyRefreshOptions(refresh.build());
	}

}
