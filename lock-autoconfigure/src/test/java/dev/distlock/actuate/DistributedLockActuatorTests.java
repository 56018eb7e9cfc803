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

package dev.distlock.actuate;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
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
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.SharedLockState;
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
		AtomicLong token = new AtomicLong();
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> this.jobs.hold(id, () -> {
			try (LockHandle reentered = this.lockClient.lock("job:" + id)) {
				token.set(reentered.fencingToken());
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
			.containsEntry("kind", "exclusive")
			.containsEntry("mode", "exclusive")
			.containsEntry("permits", 1)
			.containsKeys("acquiredAt", "heldFor", "leaseRemaining", "fencingToken");
		assertThat(((Number) lock.get("fencingToken")).longValue()).isEqualTo(token.get()).isPositive();
		assertThat(response.<String>json("$.waiters['Jobs.hold'][0].key")).isEqualTo("job:" + id);
		assertThat(response.<String>json("$.waiters['Jobs.hold'][0].kind")).isEqualTo("exclusive");
		assertThat(response.<String>json("$.waiters['Jobs.hold'][0].mode")).isEqualTo("exclusive");
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
			long token = mine.fencingToken();
			ActuatorHttp.Response here = this.http.get("/actuator/distlock/" + key);
			assertThat(here.<Boolean>json("$.heldByThisInstance")).isTrue();
			assertThat(here.<String>json("$.hold.name")).isEqualTo("unnamed");
			assertThat(here.<Number>json("$.hold.fencingToken").longValue()).isEqualTo(token);
			assertThat(here.body()).doesNotContain(this.redis.opsForValue().get(key));
		}
	}

	@Test
	void keyStateOfSharedLocksListsEveryHolderWithoutTokens() {
		String readers = TestRedis.uniqueKey("readers");
		String semaphore = TestRedis.uniqueKey("semaphore");
		String writer = TestRedis.uniqueKey("writer");
		String waiters = new LockKeyspace("", false, 1024).waitersKey(semaphore);
		SharedLockState readState = new SharedLockState(this.redis, readers).holder("r.aa01", 30_000)
			.holder("r.bb02", 30_000)
			.holder("r.cc03", 30_000);
		SharedLockState permitState = new SharedLockState(this.redis, semaphore).holder("s5.dd04", 30_000)
			.holder("s5.ee05", 30_000)
			.waiter(waiters, "s5.ff06", 5_000);
		SharedLockState writeState = new SharedLockState(this.redis, writer).holder("w.ab07", 30_000);
		try {
			ActuatorHttp.Response read = this.http.get("/actuator/distlock/" + readers);
			assertThat(read.<String>json("$.kind")).isEqualTo("read-write");
			assertThat(read.<List<String>>json("$.holders[*].kind")).containsExactly("reader", "reader", "reader");
			assertThat(read.<List<String>>json("$.holders[*].leaseRemaining")).hasSize(3).doesNotContainNull();
			assertThat(read.<List<Boolean>>json("$.holders[*].heldByThisInstance")).containsOnly(false);
			assertThat(read.<Integer>json("$.waiters")).isZero();
			assertThat(read.body()).doesNotContain("aa01", "bb02", "cc03");
			ActuatorHttp.Response permits = this.http.get("/actuator/distlock/" + semaphore);
			assertThat(permits.<String>json("$.kind")).isEqualTo("semaphore");
			assertThat(permits.<Integer>json("$.permits")).isEqualTo(5);
			assertThat(permits.<Integer>json("$.waiters")).isOne();
			assertThat(permits.<List<String>>json("$.holders[*].kind")).containsExactly("permit", "permit");
			ActuatorHttp.Response write = this.http.get("/actuator/distlock/" + writer);
			assertThat(write.<List<String>>json("$.holders[*].kind")).containsExactly("writer");
		}
		finally {
			readState.delete();
			permitState.delete(waiters);
			writeState.delete();
		}
	}

	@Test
	void keyStateOfAnExclusiveLockSaysItsKind() throws Exception {
		String key = TestRedis.uniqueKey("exclusive");
		try (HeldLock held = HeldLock.elsewhere(otherInstance, key)) {
			ActuatorHttp.Response response = this.http.get("/actuator/distlock/" + key);
			assertThat(response.<String>json("$.kind")).isEqualTo("exclusive");
			assertThat(response.<List<?>>json("$.holders")).isEmpty();
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
		assertThat(response.<Map<String, String>>json("$.details.scripts")).containsOnlyKeys("acquire", "release",
				"delete-if-equal", "renew", "fence", "inspect", "shared-acquire", "shared-release", "multi-acquire");
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
		assertThat(response.body()).contains(
				"distlock_acquisition_seconds_count{error=\"none\",kind=\"exclusive\",mode=\"exclusive\",name=\"counted\",outcome=\"acquired\"}")
			.contains(
					"distlock_hold_seconds_count{error=\"none\",kind=\"exclusive\",mode=\"exclusive\",name=\"counted\",outcome=\"released\"}")
			.contains("distlock_hold_active_seconds_count{kind=\"exclusive\",mode=\"exclusive\",name=\"counted\"}")
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
