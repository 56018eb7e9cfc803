package dev.distlock.actuate;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.actuate.ActuatorTestApplication.Jobs;
import dev.distlock.observation.LockMetrics;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Meters, the {@code distlock} endpoint over HTTP and the health indicator in an
 * application with Actuator and real Redis.
 */
@SpringBootTest(classes = ActuatorTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=distlock,health,metrics,prometheus",
				"management.endpoint.health.show-details=always" })
class DistributedLockActuatorTests extends ActuatorApplicationTests {

	@Autowired
	private LockClient lockClient;

	@Autowired
	private MeterRegistry meterRegistry;

	@Autowired
	private StringRedisTemplate redis;

	@Autowired
	private ApplicationContext context;

	private ActuatorHttp http;

	@BeforeEach
	void http() {
		this.http = new ActuatorHttp(this.port);
	}

	@Test
	void lockedCallsAreMeteredByNameAndOutcomeNeverByKey() throws Exception {
		String id = TestRedis.uniqueKey("metered");
		double before = acquisitions("acquired");
		this.jobs.counted(id);
		this.jobs.counted(id);
		try (HeldLock held = HeldLock.elsewhere(otherInstance, "job:" + id)) {
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> this.jobs.counted(id));
		}
		assertThat(acquisitions("acquired") - before).isEqualTo(2);
		ActuatorHttp.Response response = this.http
			.get("/actuator/metrics/distlock.acquisition?tag=name:counted&tag=outcome:not_acquired");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.<List<Double>>json("$.measurements[?(@.statistic=='COUNT')].value")).containsExactly(1.0);
		assertThat(this.meterRegistry.getMeters())
			.filteredOn((meter) -> meter.getId().getName().startsWith("distlock."))
			.isNotEmpty()
			.allSatisfy((meter) -> assertThat(meter.getId().getTags())
				.noneMatch((tag) -> tag.getKey().equals("key") || tag.getValue().contains(id)));
		assertThat(this.http.get("/actuator/metrics").<List<String>>json("$.names"))
			.contains(LockMetrics.ACQUISITION, LockMetrics.HOLD, LockMetrics.HOLD_ACTIVE)
			.doesNotContain("distlock.acquire", "distlock.execution", "distlock.execution.active");
	}

	@Test
	void endpointListsHeldLocksAndWaitersByName() {
		String id = TestRedis.uniqueKey("listed");
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		AtomicReference<String> holderThread = new AtomicReference<>();
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> this.jobs.hold(id, () -> {
			try (LockHandle reentered = this.lockClient.lock("job:" + id)) {
				holderThread.set(Thread.currentThread().getName());
				entered.countDown();
				ActuatorTestApplication.await(proceed);
			}
		}));
		ActuatorTestApplication.await(entered);
		CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> this.jobs.hold(id, () -> {
		}));
		await().until(() -> this.http.get("/actuator/distlock").has("$.waiters['Jobs.hold']"));
		ActuatorHttp.Response response = this.http.get("/actuator/distlock");
		assertThat(response.status()).isEqualTo(200);
		Map<String, Object> lock = response.<List<Map<String, Object>>>json("$.locks[?(@.key=='job:" + id + "')]")
			.get(0);
		assertThat(lock).containsEntry("name", "Jobs.hold")
			.containsEntry("reentrancyDepth", 2)
			.containsEntry("autoRenewing", true)
			.containsEntry("thread", holderThread.get())
			.containsEntry("leaseLost", false)
			.containsKeys("acquiredAt", "heldFor", "leaseRemaining", "fencingToken");
		assertThat(((Number) lock.get("fencingToken")).longValue()).isPositive();
		assertThat(response.<String>json("$.waiters['Jobs.hold'][0].key")).isEqualTo("job:" + id);
		assertThat(response.body()).doesNotContain(this.redis.opsForValue().get("job:" + id));
		proceed.countDown();
		holder.join();
		waiter.join();
		assertThat(this.http.get("/actuator/distlock").<List<?>>json("$.locks[?(@.key=='job:" + id + "')]")).isEmpty();
	}

	@Test
	void keyStateTellsWhetherThisInstanceHoldsTheKeyWithoutRevealingTokens() throws Exception {
		String key = TestRedis.uniqueKey("state") + "/with/slashes";
		ActuatorHttp.Response free = this.http.get("/actuator/distlock/" + key);
		assertThat(free.status()).isEqualTo(200);
		assertThat(free.<Boolean>json("$.held")).isFalse();
		try (HeldLock held = HeldLock.elsewhere(otherInstance, key)) {
			ActuatorHttp.Response elsewhere = this.http.get("/actuator/distlock/" + key);
			assertThat(elsewhere.<String>json("$.key")).isEqualTo(key);
			assertThat(elsewhere.<Boolean>json("$.held")).isTrue();
			assertThat(elsewhere.<Boolean>json("$.heldByThisInstance")).isFalse();
			assertThat(elsewhere.<String>json("$.timeToLive")).isNotBlank();
			assertThat(elsewhere.body()).doesNotContain(this.redis.opsForValue().get(key));
		}
		try (LockHandle mine = this.lockClient.lock(key)) {
			ActuatorHttp.Response here = this.http.get("/actuator/distlock/" + key);
			assertThat(here.<Boolean>json("$.heldByThisInstance")).isTrue();
			assertThat(here.<String>json("$.hold.name")).isEqualTo("unnamed");
			assertThat(here.<Number>json("$.hold.fencingToken").longValue()).isEqualTo(mine.fencingToken());
			assertThat(here.body()).doesNotContain(this.redis.opsForValue().get(key));
		}
	}

	@Test
	void forceReleaseIsNotOfferedByDefault() {
		String key = TestRedis.uniqueKey("kept");
		try (LockHandle mine = this.lockClient.lock(key)) {
			assertThat(this.http.delete("/actuator/distlock/" + key).status()).isEqualTo(405);
			assertThat(this.redis.hasKey(key)).isTrue();
		}
		assertThat(this.context.getBeansOfType(ForceReleasingDistributedLockEndpoint.class)).isEmpty();
	}

	@Test
	void healthIsUpWithScriptsAndSubscription() {
		ActuatorHttp.Response response = this.http.get("/actuator/health/distlock");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.<String>json("$.status")).isEqualTo("UP");
		assertThat(response.<Map<String, String>>json("$.details.scripts")).containsOnlyKeys("acquire", "multi-acquire",
				"release", "renew", "inspect");
		assertThat(response.<Boolean>json("$.details.releaseSubscription.subscribed")).isTrue();
		assertThat(response.<String>json("$.details.releaseSubscription.channel"))
			.matches("distlock:released:[0-9a-f]{16}");
	}

	@Test
	void observationsReachTheApplicationsObservationRegistry() {
		String id = TestRedis.uniqueKey("observed");
		this.jobs.counted(id);
		assertThat(this.meterRegistry.find("distlock.acquisition").tags("name", "counted").timer()).isNotNull();
		assertThat(this.meterRegistry.find("distlock.hold").tags("name", "counted", "outcome", "released").timer())
			.isNotNull();
	}

	@Test
	void prometheusScrapeShowsTheMetersByName() {
		String id = TestRedis.uniqueKey("scraped");
		this.jobs.counted(id);
		ActuatorHttp.Response response = this.http.getText("/actuator/prometheus");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.body())
			.contains("distlock_acquisition_seconds_count{error=\"none\",name=\"counted\",outcome=\"acquired\"}")
			.contains("distlock_hold_seconds_count{error=\"none\",name=\"counted\",outcome=\"released\"}")
			.contains("distlock_hold_active_seconds_count{name=\"counted\"}")
			.contains("distlock_renewals_total")
			.doesNotContain("distlock_acquire_seconds", "distlock_execution_seconds")
			.doesNotContain(id);
	}

	private double acquisitions(String outcome) {
		var timer = this.meterRegistry.find(LockMetrics.ACQUISITION)
			.tags("name", "counted", "outcome", outcome)
			.timer();
		return (timer != null) ? timer.count() : 0;
	}

}
