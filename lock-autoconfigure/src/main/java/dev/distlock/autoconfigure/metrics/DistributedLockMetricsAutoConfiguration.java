package dev.distlock.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.distlock.observation.LockMetrics;

/**
 * Auto-configures the {@link LockMetrics meters} of distributed locks when the
 * application has a Micrometer {@link MeterRegistry}: a listener that the auto-configured
 * lock client reports to.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
public final class DistributedLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMetrics distributedLockMetrics(MeterRegistry meterRegistry) {
		return new LockMetrics(meterRegistry);
	}

}
