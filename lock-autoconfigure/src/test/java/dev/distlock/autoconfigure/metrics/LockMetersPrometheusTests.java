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

package dev.distlock.autoconfigure.metrics;

import java.time.Duration;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock timers in a Prometheus scrape, as the example queries of docs/observability.md
 * read them: histogram buckets of lock wait and hold time once
 * {@code management.metrics.distribution.percentiles-histogram} turns them on, whether
 * the observations or {@code LockMetrics} record the timers; the long task timer of held
 * locks then publishes a gauge histogram.
 */
class LockMetersPrometheusTests {

	private static final String HISTOGRAMS = "management.metrics.distribution.percentiles-histogram.distlock.acquisition=true";

	private static final String HOLD_HISTOGRAMS = "management.metrics.distribution.percentiles-histogram.distlock.hold=true";

	private final ApplicationContextRunner prometheus = LockTestContexts.withSharedRedis()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				PrometheusMetricsExportAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class));

	private final ApplicationContextRunner prometheusAndObservations = this.prometheus
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class));

	@Test
	void observedTimersPublishHistogramBucketsWhenTurnedOn() {
		this.prometheusAndObservations.withPropertyValues(HISTOGRAMS, HOLD_HISTOGRAMS)
			.run((context) -> assertHistogramBuckets(lockAndScrape(context)));
	}

	@Test
	void lockMetricsTimersPublishHistogramBucketsWhenTurnedOn() {
		this.prometheus.withPropertyValues(HISTOGRAMS, HOLD_HISTOGRAMS)
			.run((context) -> assertHistogramBuckets(lockAndScrape(context)));
	}

	@Test
	void timersPublishNoHistogramBucketsByDefault() {
		this.prometheusAndObservations.run((context) -> {
			String scrape = lockAndScrape(context);
			assertThat(scrape).contains(
					"distlock_acquisition_seconds_count{error=\"none\",kind=\"exclusive\",mode=\"exclusive\",name=\"scraped\",outcome=\"acquired\"} 1")
				.contains(
						"distlock_hold_active_seconds_count{kind=\"exclusive\",mode=\"exclusive\",name=\"scraped\"} 0")
				.doesNotContain("distlock_acquisition_seconds_bucket", "distlock_hold_seconds_bucket");
		});
	}

	@Test
	void semaphoreTimersWithTheirPermitsTagAreScrapedBesideThoseOfOtherKinds() {
		this.prometheusAndObservations.run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			client
				.lock(TestRedis.uniqueKey("permit"),
						new LockOptions(Duration.ZERO, Duration.ofSeconds(30)).withName("scraped").withPermits(5))
				.release();
			assertThat(lockAndScrape(context)).contains(
					"distlock_acquisition_seconds_count{error=\"none\",kind=\"exclusive\",mode=\"exclusive\",name=\"scraped\",outcome=\"acquired\"} 1",
					"distlock_acquisition_seconds_count{error=\"none\",kind=\"semaphore\",mode=\"exclusive\",name=\"scraped\",outcome=\"acquired\",permits=\"5\"} 1");
		});
	}

	private static void assertHistogramBuckets(String scrape) {
		assertThat(scrape).contains(
				"distlock_acquisition_seconds_bucket{error=\"none\",kind=\"exclusive\",mode=\"exclusive\",name=\"scraped\",outcome=\"acquired\",le=\"+Inf\"} 1")
			.contains(
					"distlock_hold_seconds_bucket{error=\"none\",kind=\"exclusive\",mode=\"exclusive\",name=\"scraped\",outcome=\"released\",le=\"+Inf\"} 1")
			.contains("distlock_hold_active_seconds_gcount{kind=\"exclusive\",mode=\"exclusive\",name=\"scraped\"} 0")
			.doesNotContain("distlock_acquire_seconds", "distlock_execution_seconds");
	}

	private static String lockAndScrape(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		context.getBean(LockClient.class)
			.lock(TestRedis.uniqueKey("scraped"),
					new LockOptions(Duration.ZERO, Duration.ofSeconds(30)).withName("scraped"))
			.release();
		return context.getBean(PrometheusMeterRegistry.class).scrape();
	}

}
