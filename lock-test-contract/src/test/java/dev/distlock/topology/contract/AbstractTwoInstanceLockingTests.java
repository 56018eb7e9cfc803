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

package dev.distlock.topology.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.redis.monitor.ReleaseSubscriptionStatus;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.topology.contract.SkuStock.Hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @DistributedLock} methods of two instances of an application, each a Spring Boot
 * context configured only with the connection to the deployment under test and a lease of
 * one second for auto-renewed locks: they exclude each other, count exactly, get fencing
 * tokens that increase in hold order, wait no longer than their wait time, and a renewed
 * hold outlasts its lease.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractTwoInstanceLockingTests {

	private static final Duration LEASE = Duration.ofSeconds(1);

	private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	/**
	 * Returns the properties, {@code name=value}, that connect an instance to Redis.
	 */
	abstract List<String> connection();

	@BeforeAll
	void startInstances() {
		for (int i = 0; i < 2; i++) {
			this.instances
				.add(LockApplications.start(connection(), "distlock.renewal.lease=" + LEASE.toMillis() + "ms"));
		}
	}

	@AfterAll
	void stopInstances() {
		this.instances.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void incrementsFromBothInstancesCountExactlyWithoutOverlapAndWithTokensRisingInHoldOrder() throws Exception {
		List<String> skus = List.of(uniqueSku(), uniqueSku());
		ConcurrentRunner.run(8, 40, (thread) -> stock(thread % 2).increment(skus.get((thread / 2) % 2)));
		for (String sku : skus) {
			assertThat(stock(0).stock(sku)).isEqualTo(160);
			List<Hold> holds = new ArrayList<>(stock(0).holds(sku));
			holds.addAll(stock(1).holds(sku));
			assertThat(stock(0).holds(sku)).isNotEmpty();
			assertThat(stock(1).holds(sku)).isNotEmpty();
			HoldLog log = new HoldLog();
			holds.forEach((hold) -> log.record(hold.startNanos(), hold.endNanos()));
			log.assertSerial(160);
			holds.sort(Comparator.comparingLong(Hold::startNanos));
			for (int i = 1; i < holds.size(); i++) {
				assertThat(holds.get(i).fencingToken()).as("token of hold %d of %s", i, sku)
					.isGreaterThan(holds.get(i - 1).fencingToken());
			}
		}
	}

	@Test
	void waiterOfTheOtherInstanceGivesUpAtItsWaitTimeAndIsLetInOnRelease() throws Exception {
		String sku = uniqueSku();
		HoldInOtherThread holder = HoldInOtherThread
			.start((held, release) -> stock(0).holdUntilReleased(sku, held, release));
		assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> stock(1).lockWithinShortWait(sku))
			.satisfies((ex) -> assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(300)));
		CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> stock(1).increment(sku),
				(task) -> new Thread(task, "waiter").start());
		assertThat(waiter).as("waiter let in while the lock is held").isNotDone();
		long holderToken = holder.release().get(30, TimeUnit.SECONDS).fencingToken();
		assertThat(waiter.get(30, TimeUnit.SECONDS)).isGreaterThan(holderToken);
	}

	@Test
	void renewedHoldsOfSeveralKeysOutlastTheirLeaseWhileTheOtherInstanceWaitsInVain() throws Exception {
		List<String> skus = List.of(uniqueSku(), uniqueSku(), uniqueSku(), uniqueSku());
		List<HoldInOtherThread> holders = new ArrayList<>();
		for (String sku : skus) {
			holders.add(HoldInOtherThread.start((held, release) -> stock(0).holdUntilReleased(sku, held, release)));
		}
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> stock(1).lockWithinTwoAndAHalfSeconds(skus.get(0)))
			.satisfies((ex) -> assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(2500)));
		for (String sku : skus.subList(1, skus.size())) {
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> stock(1).lockWithinShortWait(sku));
		}
		for (int i = 0; i < skus.size(); i++) {
			Hold hold = holders.get(i).release().get(30, TimeUnit.SECONDS);
			assertThat(hold.endNanos() - hold.startNanos()).isGreaterThan(LEASE.multipliedBy(2).toNanos());
			assertThat(hold.leaseLost()).isFalse();
			assertThat(stock(1).lockWithinShortWait(skus.get(i))).isGreaterThan(hold.fencingToken());
		}
	}

	@Test
	void controlHoldOnAFixedLeaseOfTheSameLengthLetsTheOtherInstanceInAndFailsClosed() throws Exception {
		String sku = uniqueSku();
		HoldInOtherThread holder = HoldInOtherThread
			.start((held, release) -> stock(0).holdOnFixedLeaseUntilReleased(sku, held, release));
		long intruder = stock(1).lockWithinTwoAndAHalfSeconds(sku);
		assertThat(holder.release()).failsWithin(Duration.ofSeconds(30))
			.withThrowableThat()
			.havingRootCause()
			.isInstanceOf(LockLeaseLostException.class);
		assertThat(intruder).isPositive();
	}

	@Test
	void checksBehindTheHealthIndicatorPassOnBothInstances() {
		for (ConfigurableApplicationContext instance : this.instances) {
			RedisLockMonitor monitor = instance.getBean(RedisLockClient.class).monitor();
			assertThat(monitor.checkScripts()).containsOnlyKeys("acquire", "release", "delete-if-equal", "renew",
					"fence", "inspect", "shared-acquire", "shared-release", "multi-acquire");
			monitor.checkLocking();
			assertThat(monitor.misconfiguration()).isEmpty();
			// A cluster subscribes per slot while callers wait (sharded), anything else
			// keeps one channel subscribed.
			boolean subscribed = monitor.releaseSubscription()
				.map(ReleaseSubscriptionStatus::isSubscribed)
				.or(() -> monitor.shardedReleaseSubscription()
					.map((sharded) -> sharded.running() && sharded.isHealthy()))
				.orElse(false);
			assertThat(subscribed).as("release messages ready").isTrue();
		}
	}

	private SkuStock stock(int instance) {
		return this.instances.get(instance).getBean(SkuStock.class);
	}

	private static String uniqueSku() {
		return UUID.randomUUID().toString();
	}

}
