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

package dev.distlock.sample.demo;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.ClassUtils;

import dev.distlock.sample.redis.EmbeddedRedisAvailability;
import dev.distlock.sample.redis.EmbeddedRedisUnavailableException;
import dev.distlock.sample.stock.StockService;

/**
 * The {@code --demo} mode: starts an embedded Redis server and two instances of the
 * sample application sharing it and one in-memory H2 database, sends a few thousand
 * concurrent requests to scenarios 1 and 2 alternately through both instances, checks the
 * outcome, pauses an instance past its lease to show its fenced writes refused
 * ({@link PausedHolderCheck}) and prints a report. The exit status is {@code 0} only if
 * everything is consistent.
 * <p>
 * The embedded Redis comes from the development-only {@code lock-test-support}, which
 * {@code spring-boot:run} has on its class path and the application jar does not: without
 * it the demo stops at once with {@link EmbeddedRedisUnavailableException}.
 */
public final class DemoLauncher {

	private static final int INSTANCES = 2;

	private static final Duration LOAD_TIMEOUT = Duration.ofMinutes(3);

	private final DemoSettings settings;

	private final PrintStream out;

	/**
	 * Creates a launcher.
	 * @param settings how much load to generate
	 * @param out where to print progress and the report
	 */
	public DemoLauncher(DemoSettings settings, PrintStream out) {
		this.settings = settings;
		this.out = out;
	}

	/**
	 * Whether the command line asks for the demo.
	 * @param args the command line arguments
	 * @return whether they contain {@code --demo}
	 */
	public static boolean isRequested(String[] args) {
		return List.of(args).contains("--demo");
	}

	/**
	 * Runs the demo with the settings of the command line and prints to standard output.
	 * @param args the command line arguments
	 * @return the exit status: {@code 0} if consistent, {@code 1} if not, {@code 2} if
	 * the demo failed or could not run
	 */
	public static int run(String[] args) {
		try {
			return new DemoLauncher(DemoSettings.fromArguments(args), System.out).run().consistent() ? 0 : 1;
		}
		catch (EmbeddedRedisUnavailableException ex) {
			System.err.println(ex.getMessage());
			return 2;
		}
		catch (RuntimeException | InterruptedException ex) {
			System.err.println("The demo failed: " + ex);
			ex.printStackTrace();
			return 2;
		}
	}

	/**
	 * Runs the demo.
	 * @return the report, already printed
	 * @throws EmbeddedRedisUnavailableException if the embedded Redis is not on the class
	 * path of the thread's context class loader
	 * @throws InterruptedException if interrupted while the load runs
	 */
	public DemoReport run() throws InterruptedException {
		if (!EmbeddedRedisAvailability.isAvailable(ClassUtils.getDefaultClassLoader())) {
			throw EmbeddedRedisUnavailableException.forDemo();
		}
		this.out.println("distlock demo: " + INSTANCES + " instances of the sample app, one Redis, one database");
		String database = "jdbc:h2:mem:distlock-demo-" + UUID.randomUUID();
		try (DemoRedisServer redis = DemoRedisServer.start();
				SampleInstances instances = SampleInstances.start(INSTANCES,
						(builder) -> builder.sources(LockWaitRecorder.class), arguments(redis, database))) {
			List<URI> uris = IntStream.range(0, INSTANCES).mapToObj(instances::baseUri).toList();
			this.out.println("  redis " + redis.url() + ", database " + database + ", instances " + uris);
			StockService stock = instances.bean(0, StockService.class);
			for (int sku = 1; sku <= this.settings.skus(); sku++) {
				stock.set(sku, this.settings.stockPerSku());
			}
			List<LockWaitRecorder> recorders = IntStream.range(0, INSTANCES)
				.mapToObj((i) -> instances.bean(i, LockWaitRecorder.class))
				.toList();
			recorders.forEach(LockWaitRecorder::reset);
			this.out.printf(
					"Seeded %d SKUs with %d items each. Sending %d stock decrements and %d check-ins, "
							+ "%d at a time, alternately to each instance...%n",
					this.settings.skus(), this.settings.stockPerSku(), this.settings.decrements(),
					this.settings.checkIns(), this.settings.concurrency());
			List<DemoRequest> requests = DemoRequests.build(this.settings, uris);
			LoadGenerator load = new LoadGenerator(this.settings.concurrency());
			long start = System.nanoTime();
			List<DemoResponse> responses;
			try (ProgressPrinter progress = new ProgressPrinter(this.out, load::completed, requests.size())) {
				responses = load.send(requests, LOAD_TIMEOUT);
			}
			Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
			StockCheck stockCheck = StockCheck.of(this.settings, responses, (sku) -> stock.get(sku).quantity());
			QueueCheck queueCheck = QueueCheck.of(responses, instances.bean(0, JdbcClient.class));
			Map<String, Percentiles> lockAcquisitions = DemoReport.lockAcquisitions(recorders);
			this.out.println(
					"Pausing one instance past its lease while it holds a lock, letting the other write, then the paused one...");
			PausedHolderCheck pausedHolder = PausedHolderCheck.run(instances);
			DemoReport report = new DemoReport(requests.size(), elapsed, stockCheck, queueCheck, pausedHolder,
					lockAcquisitions, Percentiles.ofNanos(responses.stream().map(DemoResponse::nanos).toList()));
			report.print(this.out);
			return report;
		}
	}

	private static List<String> arguments(DemoRedisServer redis, String database) {
		// One in-memory H2 database reached by name from both instances of this JVM: it
		// lives as
		// long as either instance's connection pool holds a connection.
		return List.of("--spring.data.redis.url=" + redis.url(), "--spring.datasource.url=" + database,
				"--sample.orders.close-cron=-", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
				"--logging.level.dev.distlock.sample=WARN");
	}

}
