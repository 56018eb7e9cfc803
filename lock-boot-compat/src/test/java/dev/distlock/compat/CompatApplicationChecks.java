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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every supported Spring Boot line must do with the starter, on every Redis
 * topology: {@link CompatApplication} starts, its locked methods count exactly under two
 * concurrent callers (blocking and reactive), its health is {@code UP}, a busy lock
 * answers {@code 409} as a problem detail, a lock released by one instance is handed to
 * the caller of another instance that waited for it on a release channel, and the lock
 * meters and observations are recorded. A subclass starts the Redis of one topology and
 * adds what only that topology has. Each line module runs these on the Spring Boot it
 * names ({@code distlock.compat.spring-boot.version}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class CompatApplicationChecks {

	static final Duration WAIT = Duration.ofSeconds(10);

	private Map<String, Object> redisProperties = Map.of();

	private RunningApplication application;

	/**
	 * Starts the Redis of this topology.
	 * @return the {@code spring.data.redis.*} properties that connect the application to
	 * it
	 */
	abstract Map<String, Object> startRedis();

	/**
	 * Stops everything {@link #startRedis()} started.
	 */
	abstract void stopRedis();

	/**
	 * Returns the server that holds a key: the server, the master, or the master of the
	 * key's slot.
	 * @param key the key
	 * @return the server
	 */
	abstract RedisTestServer serverOf(String key);

	/**
	 * Returns whether the application's release channels are sharded ({@code SPUBLISH},
	 * on a Redis Cluster) rather than classic.
	 * @return whether they are sharded
	 */
	abstract boolean shardedReleaseChannels();

	@BeforeAll
	void startApplication() {
		this.redisProperties = startRedis();
		this.application = startInstance(Map.of());
		System.out.println("COMPAT " + getClass().getSimpleName() + ": Spring Boot " + SpringBootVersion.getVersion()
				+ ", Lettuce " + RedisClient.class.getPackage().getImplementationVersion() + ", Redis "
				+ redisVersion(serverOf("compat")));
	}

	@AfterAll
	void stopApplication() {
		try {
			if (this.application != null) {
				this.application.close();
			}
		}
		finally {
			stopRedis();
		}
	}

	@Test
	@Order(1)
	void runsOnTheSpringBootOfItsLine() {
		assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("distlock.compat.spring-boot.version"));
		assertThat(this.application.context().isRunning()).isTrue();
	}

	@Test
	@Order(2)
	void twoConcurrentCallersCountExactly() throws Exception {
		StockService stock = this.application.context().getBean(StockService.class);
		ConcurrentRunner.run(2, 200, (caller) -> stock.increment("counted"));
		assertThat(stock.increment("counted")).isEqualTo(401);
		ReactiveStockService reactive = this.application.context().getBean(ReactiveStockService.class);
		ConcurrentRunner.run(2, 100, (caller) -> reactive.increment("counted-reactive").block());
		assertThat(reactive.increment("counted-reactive").block()).isEqualTo(201);
	}

	@Test
	@Order(3)
	void healthIsUp() throws Exception {
		HttpResponse<String> response = this.application.get("/actuator/health");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode health = json(response);
		assertThat(health.path("status").asString()).isEqualTo("UP");
		assertThat(health.path("components").path("distlock").path("status").asString()).as(response.body())
			.isEqualTo("UP");
	}

	@Test
	@Order(4)
	void busyLockAnswersConflictAndReleaseHandsItToAnotherInstancesWaiter() throws Exception {
		String sku = "handed-over";
		String key = "compat:sku:" + sku;
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ExecutorService callers = Executors.newFixedThreadPool(2);
		try (RunningApplication other = startInstance(Map.of())) {
			StockService holder = this.application.context().getBean(StockService.class);
			Future<Long> first = callers.submit(() -> holder.whileLocked(sku, () -> {
				holding.countDown();
				release.await();
				return System.nanoTime();
			}));
			assertThat(holding.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

			HttpResponse<String> busy = other.get("/stock/" + sku);
			assertThat(busy.statusCode()).as(busy.body()).isEqualTo(409);
			assertThat(busy.headers().firstValue("Content-Type"))
				.hasValueSatisfying((contentType) -> assertThat(contentType).startsWith("application/problem+json"));
			assertThat(json(busy).path("type").asString()).isEqualTo("https://distlock.dev/problems/lock-not-acquired");
			assertThat(this.application.heldKeys()).containsExactly(key);

			StockService waiter = other.context().getBean(StockService.class);
			Future<Long> second = callers.submit(() -> waiter.whileLocked(sku, System::nanoTime));
			await().atMost(WAIT)
				.until(() -> json(other.get("/actuator/distlock")).path("waiters").path("stock").size() == 1);
			// A sharded channel is subscribed while a caller waits on a key of its slot.
			await().atMost(WAIT).until(() -> !subscribedReleaseChannels(key).isEmpty());

			release.countDown();
			long firstEnded = first.get(WAIT.toSeconds(), TimeUnit.SECONDS);
			long secondRan = second.get(WAIT.toSeconds(), TimeUnit.SECONDS);
			assertThat(secondRan).as("the waiter ran after the holder").isGreaterThan(firstEnded);
			JsonNode inRedis = json(this.application.get("/actuator/distlock/" + key));
			assertThat(inRedis.path("held").asBoolean()).as(inRedis.toString()).isFalse();
			assertThat(this.application.heldKeys()).isEmpty();
		}
		finally {
			release.countDown();
			callers.shutdownNow();
		}
	}

	@Test
	@Order(5)
	void locksAreMeasuredByTheirObservations() throws Exception {
		this.application.context().getBean(StockService.class).increment("measured");
		JsonNode acquisitions = json(
				this.application.get("/actuator/metrics/distlock.acquisition?tag=name:stock&tag=outcome:acquired"));
		assertThat(count(acquisitions)).as(acquisitions.toString()).isGreaterThanOrEqualTo(1);
		JsonNode holds = json(this.application.get("/actuator/metrics/distlock.hold?tag=name:stock"));
		assertThat(count(holds)).as(holds.toString()).isGreaterThanOrEqualTo(1);
		// Recorded only where the observations record the timers (Boot's observation
		// handler).
		HttpResponse<String> active = this.application.get("/actuator/metrics/distlock.hold.active?tag=name:stock");
		assertThat(active.statusCode()).as(active.body()).isEqualTo(200);
	}

	/**
	 * Starts a second instance whose grants a replica must acknowledge
	 * ({@code distlock.replication.min-replicas-acked=1}, so it has no reactive service),
	 * and counts from both instances at once on one key: the count is exact, and the
	 * key's master received a {@code WAIT} for each grant of the second instance.
	 * @throws Exception if a call fails
	 */
	void twoInstancesCountExactlyWithGrantsAcknowledgedByAReplica() throws Exception {
		String sku = "two-instances";
		long waitsBefore = waitCalls(serverOf("compat:sku:" + sku));
		try (RunningApplication acknowledging = startInstance(Map.of("distlock.replication.min-replicas-acked", 1,
				// Loopback replicas acknowledge within milliseconds, but the CPU may be
				// busy.
				"distlock.replication.ack-timeout", "1s"))) {
			assertThat(acknowledging.context().getBeansOfType(ReactiveStockService.class)).isEmpty();
			StockService first = this.application.context().getBean(StockService.class);
			StockService second = acknowledging.context().getBean(StockService.class);
			ConcurrentRunner.run(2, 100, (caller) -> ((caller == 0) ? first : second).increment(sku));
			assertThat(first.increment(sku)).isEqualTo(201);
		}
		assertThat(waitCalls(serverOf("compat:sku:" + sku)) - waitsBefore).isGreaterThanOrEqualTo(100);
	}

	/**
	 * Waits until a locked call of the application succeeds again after a failover, and
	 * prints how long that took (or that it did not happen in time) before the test
	 * asserts.
	 * @param instance the instance that locks
	 * @param sku the item to lock
	 * @param bound how long the call may take to succeed
	 */
	void awaitLockingAgain(RunningApplication instance, String sku, Duration bound) {
		long start = System.nanoTime();
		try {
			await().atMost(bound)
				.pollInterval(Duration.ofMillis(100))
				.ignoreExceptions()
				.until(() -> instance.post("/stock/" + sku).statusCode() == 200);
			System.out.println("COMPAT " + getClass().getSimpleName() + " on Spring Boot "
					+ SpringBootVersion.getVersion() + ": locking again "
					+ Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms after the promotion");
		}
		catch (ConditionTimeoutException ex) {
			System.out
				.println("COMPAT " + getClass().getSimpleName() + " on Spring Boot " + SpringBootVersion.getVersion()
						+ ": not locking again " + bound.toMillis() + " ms after the promotion");
			throw ex;
		}
	}

	/**
	 * Returns the instance of the application that the checks run on.
	 * @return the application
	 */
	RunningApplication application() {
		return this.application;
	}

	/**
	 * Starts an instance of the application on the Redis of this topology, on a free
	 * port.
	 * @param extraProperties properties of this instance
	 * @return the running application
	 */
	RunningApplication startInstance(Map<String, Object> extraProperties) {
		Map<String, Object> properties = new LinkedHashMap<>(this.redisProperties);
		properties.put("server.port", 0);
		properties.putAll(extraProperties);
		return new RunningApplication(
				new SpringApplicationBuilder(CompatApplication.class).properties(properties).run());
	}

	static JsonNode json(HttpResponse<String> response) {
		return JsonMapper.shared().readTree(response.body());
	}

	static String redisVersion(RedisTestServer server) {
		return RedisAdminCommands.text(server, "INFO", "server")
			.lines()
			.filter((line) -> line.startsWith("redis_version:"))
			.map((line) -> line.substring("redis_version:".length()).trim())
			.findFirst()
			.orElse("unknown");
	}

	private List<String> subscribedReleaseChannels(String key) {
		String kind = shardedReleaseChannels() ? "SHARDCHANNELS" : "CHANNELS";
		List<String> channels = new ArrayList<>();
		for (Object channel : (List<?>) RedisAdminCommands.call(serverOf(key), "PUBSUB", kind, "*released:*")) {
			channels.add((String) channel);
		}
		return channels;
	}

	private static long waitCalls(RedisTestServer server) {
		return RedisAdminCommands.text(server, "INFO", "commandstats")
			.lines()
			.filter((line) -> line.startsWith("cmdstat_wait:calls="))
			.map((line) -> Long.parseLong(line.substring("cmdstat_wait:calls=".length(), line.indexOf(','))))
			.findFirst()
			.orElse(0L);
	}

	private static double count(JsonNode meter) {
		for (JsonNode measurement : meter.path("measurements")) {
			if ("COUNT".equals(measurement.path("statistic").asString())) {
				return measurement.path("value").asDouble();
			}
		}
		return 0;
	}

	/**
	 * An instance of the application and its HTTP port.
	 */
	static final class RunningApplication implements AutoCloseable {

		private final HttpClient http = HttpClient.newHttpClient();

		private final ConfigurableApplicationContext context;

		private final int port;

		RunningApplication(ConfigurableApplicationContext context) {
			this.context = context;
			this.port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		}

		ConfigurableApplicationContext context() {
			return this.context;
		}

		HttpResponse<String> get(String path) throws Exception {
			return send(HttpRequest.newBuilder(uri(path)).GET());
		}

		HttpResponse<String> post(String path) throws Exception {
			return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
		}

		List<String> heldKeys() throws Exception {
			List<String> keys = new ArrayList<>();
			json(get("/actuator/distlock")).path("locks").forEach((lock) -> keys.add(lock.path("key").asString()));
			return keys;
		}

		private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
			return this.http.send(request.timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
		}

		private URI uri(String path) {
			return URI.create("http://127.0.0.1:" + this.port + path);
		}

		@Override
		public void close() {
			this.context.close();
		}

	}

}
