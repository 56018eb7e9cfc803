package dev.distlock.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.ClassUtils;

/**
 * Lets Lettuce learn a Redis Cluster's new topology within about a second of a failover.
 * Lettuce refreshes the topology when a command meets a redirection, an unknown node, an
 * uncovered slot or a node it keeps failing to reconnect to, but at most once per
 * {@link ClusterTopologyRefreshOptions#DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION 5
 * seconds}: the refresh that a killed master triggers comes before its replica is
 * promoted, and the next one may come 5 seconds later, so locks in the killed master's
 * slots fail for that long after the promotion. This lowers that pause to
 * {@value #ADAPTIVE_REFRESH_PAUSE_MILLIS} ms, only while it is Lettuce's default: a pause
 * the application set in its own {@link LettuceClientOptionsBuilderCustomizer} (which
 * runs after this one) or {@code ClientOptions} is kept, and so are the periodic refresh
 * of {@code spring.data.redis.lettuce.cluster.refresh.*} and every other option.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ LettuceClientOptionsBuilderCustomizer.class, ClusterClientOptions.class })
class LettuceClusterRefreshConfiguration {

	static final long ADAPTIVE_REFRESH_PAUSE_MILLIS = 1000;

	/**
	 * Whether a new {@link ClusterTopologyRefreshOptions.Builder} can drop the adaptive
	 * triggers it starts with: Lettuce 7 starts with all of them and can; Lettuce 6
	 * starts with none and has no such method.
	 */
	static final boolean TRIGGERS_CAN_BE_DISABLED = ClassUtils.hasMethod(ClusterTopologyRefreshOptions.Builder.class,
			"disableAllAdaptiveRefreshTriggers");

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	LettuceClientOptionsBuilderCustomizer distributedLockClusterTopologyRefresh() {
		return LettuceClusterRefreshConfiguration::shortenAdaptiveRefreshPause;
	}

	static void shortenAdaptiveRefreshPause(ClientOptions.Builder builder) {
		if (!(builder instanceof ClusterClientOptions.Builder cluster)) {
			return;
		}
		ClusterTopologyRefreshOptions current = cluster.build().getTopologyRefreshOptions();
		if (!current.getAdaptiveRefreshTimeout()
			.equals(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION)) {
			return;
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
		if (!current.getAdaptiveRefreshTriggers().isEmpty()) {
			refresh.enableAdaptiveRefreshTrigger(current.getAdaptiveRefreshTriggers().toArray(RefreshTrigger[]::new));
		}
		cluster.topologyRefreshOptions(refresh.build());
	}

}
