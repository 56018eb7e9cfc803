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

import dev.distlock.sample.redis.EmbeddedRedisUnavailableException;
import dev.distlock.sample.stock.StockService;

/**
 * The {@code --demo} mode: starts two instances of the sample application sharing a Redis
 * server and one in-memory H2 database, sends a few thousand concurrent requests to
 * scenarios 1 and 2 alternately through both instances, checks the outcome, pauses an
 * instance past its lease to show its fenced writes refused ({@link PausedHolderCheck})
 * and prints a report. The exit status is {@code 0} only if everything is consistent.
 * <p>
 * The Redis server is the embedded one of the development class path: the
 * {@code TestSampleApplication} of {@code src/test} ({@code spring-boot:test-run}) starts
 * it and runs the demo on it. The application's own main class, as in the application
 * jar, has none and {@link #refuse(PrintStream) refuses}.
 */
public final class DemoLauncher {

	private static final int INSTANCES = 2;

	private static final Duration LOAD_TIMEOUT = Duration.ofMinutes(3);

	private final DemoSettings settings;

	private final PrintStream out;

	private final String redisUrl;

	/**
	 * Creates a launcher.
	 * @param settings how much load to generate
	 * @param out where to print progress and the report
	 * @param redisUrl the Redis server the instances share, such as
	 * {@code redis://127.0.0.1:41234}; the demo writes to it freely, so it should be one
	 * of its own
	 */
	public DemoLauncher(DemoSettings settings, PrintStream out, String redisUrl) {
		this.settings = settings;
		this.out = out;
		this.redisUrl = redisUrl;
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
	 * @param redisUrl the Redis server the instances share
	 * @return the exit status: {@code 0} if consistent, {@code 1} if not, {@code 2} if
	 * the demo failed or could not run
	 */
	public static int run(String[] args, String redisUrl) {
		try {
			return new DemoLauncher(DemoSettings.fromArguments(args), System.out, redisUrl).run().consistent() ? 0 : 1;
		}
		catch (RuntimeException | InterruptedException ex) {
			System.err.println("The demo failed: " + ex);
			ex.printStackTrace();
			return 2;
		}
	}

	/**
	 * Says that the demo runs on the embedded Redis of the development class path, which
	 * the application's own main class, as in the application jar, does not have, and how
	 * to run it.
	 * @param err where to print it
	 * @return the exit status, {@code 2}: the demo could not run
	 */
	public static int refuse(PrintStream err) {
		err.println(EmbeddedRedisUnavailableException.forDemo().getMessage());
		return 2;
	}

	/**
	 * Runs the demo.
	 * @return the report, already printed
	 * @throws InterruptedException if interrupted while the load runs
	 */
	public DemoReport run() throws InterruptedException {
		this.out.println("distlock demo: " + INSTANCES + " instances of the sample app, one Redis, one database");
		String database = "jdbc:h2:mem:distlock-demo-" + UUID.randomUUID();
		try (SampleInstances instances = SampleInstances.start(INSTANCES,
				(builder) -> builder.sources(LockWaitRecorder.class), arguments(this.redisUrl, database))) {
			List<URI> uris = IntStream.range(0, INSTANCES).mapToObj(instances::baseUri).toList();
			this.out.println("  redis " + this.redisUrl + ", database " + database + ", instances " + uris);
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

	private static List<String> arguments(String redisUrl, String database) {
		// One in-memory H2 database reached by name from both instances of this JVM: it
		// lives as
		// long as either instance's connection pool holds a connection.
		return List.of("--spring.data.redis.url=" + redisUrl, "--spring.datasource.url=" + database,
				"--sample.orders.close-cron=-", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
				"--logging.level.dev.distlock.sample=WARN");
	}

}
