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

package dev.distlock.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.ReleaseOutcome;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.testing.MasterWithReplica;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * With {@code replicaAcknowledgement(1, timeout)} a grant runs its body only once the
 * replica acknowledged the write, on a master with one replica, over Lettuce's shared
 * connection and over a dedicated one. A replica that sleeps (still connected, so that a
 * {@code WAIT} on a connection without the grant's write would count it at once) or is
 * stopped fails the acquisition with the count, and the key is free again; the control
 * without acknowledgement grants in the same state. Renewals the sleeping replica does
 * not acknowledge leave the hold's deadline where the last acknowledged write put it,
 * although the master applied them; without acknowledgement they extend it.
 */
class ReplicaAcknowledgementTests {

	/**
	 * How long a grant, release or extension waits for the replica: long enough for a
	 * replica that is up to answer on a loaded machine, far shorter than its sleeps.
	 */
	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	/**
	 * How long a renewal of {@link #SHORT_LEASE} waits for the replica: well within the
	 * renewal period, so that a sleeping replica leaves time to find the lease lost.
	 */
	private static final Duration RENEWAL_TIMEOUT = Duration.ofMillis(100);

	/** Renewed every 400ms. */
	private static final Duration SHORT_LEASE = Duration.ofMillis(1200);

	private static final LockOptions NO_WAIT = LockOptions.renewing(Duration.ZERO);

	private static MasterWithReplica servers;

	private final List<AutoCloseable> opened = new ArrayList<>();

	@BeforeAll
	static void startServers() {
		servers = new MasterWithReplica();
	}

	@AfterAll
	static void stopServers() throws IOException {
		servers.close();
	}

	@AfterEach
	void closeClients() throws Exception {
		servers.awaitReplicaAwake();
		for (AutoCloseable closeable : this.opened) {
			closeable.close();
		}
	}

	@ParameterizedTest(name = "shared native connection: {0}")
	@ValueSource(booleans = { true, false })
	void grantAcknowledgedByTheReplicaIsOnTheReplicaWhenTheBodyRuns(boolean shared) {
		RedisLockClient client = client(shared, 1);
		String key = TestRedis.uniqueKey("acked");
		try (LockHandle handle = client.lock(key, NO_WAIT)) {
			assertThat(servers.replicaRedis.hasKey(key)).as("the replica applied the grant before the body").isTrue();
		}
	}

	@ParameterizedTest(name = "shared native connection: {0}")
	@ValueSource(booleans = { true, false })
	void grantThatASleepingReplicaDoesNotAcknowledgeFailsAndIsReleased(boolean shared) {
		RedisLockClient client = client(shared, 1);
		String key = TestRedis.uniqueKey("unacked");
		servers.sleepReplica(Duration.ofSeconds(3));
		AtomicInteger bodyRuns = new AtomicInteger();
		assertThatExceptionOfType(ReplicaAcknowledgementException.class)
			.isThrownBy(() -> client.run(key, NO_WAIT, bodyRuns::incrementAndGet))
			.isInstanceOf(LockUnavailableException.class)
			.withMessageContaining(key)
			.withMessageContaining("acknowledged by 0 of 1 replicas within 1000ms")
			.withMessageContaining("distlock.replication.min-replicas-acked")
			.satisfies((ex) -> assertThat(ex.getAcknowledged()).isZero());
		assertThat(bodyRuns).hasValue(0);
		assertThat(client(shared, 0).tryLock(key, NO_WAIT)).as("the key is free again").isPresent();
	}

	@Test
	void controlWithoutAcknowledgementGrantsWhileTheReplicaSleeps() {
		RedisLockClient client = client(true, 0);
		servers.sleepReplica(Duration.ofSeconds(3));
		AtomicInteger bodyRuns = new AtomicInteger();
		client.run(TestRedis.uniqueKey("control"), NO_WAIT, bodyRuns::incrementAndGet);
		assertThat(bodyRuns).hasValue(1);
	}

	@Test
	void grantFailsWhileTheReplicaIsStopped() {
		RedisLockClient client = client(true, 1);
		String key = TestRedis.uniqueKey("replica-down");
		servers.replica.stop();
		try {
			assertThatExceptionOfType(ReplicaAcknowledgementException.class).isThrownBy(() -> client.lock(key, NO_WAIT))
				.withMessageContaining("acknowledged by 0 of 1 replicas within 1000ms");
			assertThat(client(true, 0).tryLock(key, NO_WAIT)).as("the key is free again").isPresent();
		}
		finally {
			servers.replica.start();
			servers.awaitLinkUp();
		}
	}

	@Test
	void handOverWaitsForTheReplicaToo() throws Exception {
		RedisLockClient holder = client(true, 0);
		RedisLockClient waiter = client(true, 1);
		String key = TestRedis.uniqueKey("hand-over");
		LockHandle held = holder.lock(key, NO_WAIT);
		CompletableFuture<Boolean> waited = CompletableFuture
			.supplyAsync(() -> waiter.tryLock(key, LockOptions.renewing(Duration.ofSeconds(10)))
				.map((handle) -> servers.replicaRedis.hasKey(key) && closed(handle))
				.orElse(false));
		await().atMost(Duration.ofSeconds(5)).until(() -> waiter.monitor().waiters().size() == 1);
		held.close();
		assertThat(waited.get(10, TimeUnit.SECONDS)).as("handed over, and on the replica before the body").isTrue();
	}

	@Test
	void handOverThatASleepingReplicaDoesNotAcknowledgeFails() throws Exception {
		RedisLockClient holder = client(true, 0);
		RedisLockClient waiter = client(true, 1);
		String key = TestRedis.uniqueKey("hand-over-unacked");
		LockHandle held = holder.lock(key, NO_WAIT);
		CompletableFuture<Boolean> waited = CompletableFuture
			.supplyAsync(() -> waiter.tryLock(key, LockOptions.renewing(Duration.ofSeconds(10))).isPresent());
		await().atMost(Duration.ofSeconds(5)).until(() -> waiter.monitor().waiters().size() == 1);
		servers.sleepReplica(Duration.ofSeconds(3));
		held.close();
		assertThat(waited).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(ReplicaAcknowledgementException.class);
		assertThat(holder.tryLock(key, NO_WAIT)).as("the key is free again").isPresent();
	}

	@Test
	void renewalsThatASleepingReplicaDoesNotAcknowledgeDoNotExtendTheHold() {
		RedisLockClient client = client(true, 1, SHORT_LEASE);
		String key = TestRedis.uniqueKey("renewal-unacked");
		LockHandle handle = client.lock(key, NO_WAIT);
		servers.sleepReplica(Duration.ofSeconds(3));
		long asleep = System.nanoTime();
		// Renewals every 200ms reach the master, which the sleeping replica does not
		// acknowledge: the deadline stays where the last acknowledged write put it,
		// sent before the replica fell asleep.
		await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5)).until(handle::isLeaseLost);
		long lostAfter = (System.nanoTime() - asleep) / 1_000_000;
		long masterPttl = (Long) RedisAdminCommands.call(servers.master, "PTTL", key);
		assertThat(masterPttl).as("PTTL on the master when the lease was lost: renewed there").isGreaterThan(200);
		assertThat(lostAfter).as("ms from the replica's sleep to isLeaseLost()")
			.isLessThanOrEqualTo(SHORT_LEASE.toMillis() + 50);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
	}

	@Test
	void controlWithoutAcknowledgementRenewalsExtendTheHoldWhileTheReplicaSleeps() {
		RedisLockClient client = client(true, 0, SHORT_LEASE);
		try (LockHandle handle = client.lock(TestRedis.uniqueKey("renewal-control"), NO_WAIT)) {
			servers.sleepReplica(Duration.ofSeconds(3));
			await().during(SHORT_LEASE.multipliedBy(2))
				.atMost(SHORT_LEASE.multipliedBy(2).plusSeconds(1))
				.until(() -> !handle.isLeaseLost());
		}
	}

	@Test
	void renewalsAcknowledgedByTheReplicaKeepTheHold() {
		RedisLockClient client = client(true, 1, SHORT_LEASE);
		String key = TestRedis.uniqueKey("renewal-acked");
		try (LockHandle handle = client.lock(key, NO_WAIT)) {
			await().during(SHORT_LEASE.multipliedBy(2))
				.atMost(SHORT_LEASE.multipliedBy(2).plusSeconds(1))
				.until(() -> !handle.isLeaseLost());
			assertThat(servers.replicaRedis.hasKey(key)).as("the key on the replica").isTrue();
		}
	}

	@Test
	void extensionIsAcknowledgedAsARenewalIs() {
		RedisLockClient client = client(true, 1);
		String key = TestRedis.uniqueKey("extend-acked");
		RedisLockHandle handle = (RedisLockHandle) client.lock(key,
				new LockOptions(Duration.ZERO, Duration.ofSeconds(2)));
		long waitsBefore = waitCalls();
		handle.extend(Duration.ofSeconds(10));
		assertThat(waitCalls() - waitsBefore).as("WAIT calls").isEqualTo(1);
		assertThat(servers.replicaRedis.getExpire(key, TimeUnit.MILLISECONDS)).as("PTTL on the replica")
			.isGreaterThan(9_000L);
		long deadline = handle.validUntilNanos();
		servers.sleepReplica(Duration.ofSeconds(3));
		assertThatExceptionOfType(ReplicaAcknowledgementException.class)
			.isThrownBy(() -> handle.extend(Duration.ofSeconds(20)))
			.withMessageContaining(key)
			.withMessageContaining("acknowledged by 0 of 1 replicas within 1000ms")
			.satisfies((ex) -> assertThat(ex.getOperation()).isEqualTo(LockUnavailableException.EXTEND));
		assertThat(handle.validUntilNanos()).as("deadline after the unacknowledged extension").isEqualTo(deadline);
		// The master applied the 20s extension; the wait for the replica took TIMEOUT of
		// it.
		assertThat((Long) RedisAdminCommands.call(servers.master, "PTTL", key)).as("PTTL on the master")
			.isGreaterThan(19_000L - TIMEOUT.toMillis());
		handle.release();
	}

	@Test
	void aRenewalRoundSendsOneWaitPerBatchNotPerKey() {
		RedisLockClient client = client(true, 1);
		List<LockHandle> held = new ArrayList<>();
		for (int i = 0; i < 150; i++) {
			held.add(client.lock(TestRedis.uniqueKey("batch-" + i), NO_WAIT));
		}
		long waitsBefore = waitCalls();
		client.renewer().renewAll();
		// 150 holds renewed in two batches (100 and 50 keys): one WAIT each.
		await().atMost(Duration.ofSeconds(5)).until(() -> waitCalls() - waitsBefore >= 2);
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(2))
			.until(() -> waitCalls() - waitsBefore == 2);
		assertThat(held).as("holds after the round").noneMatch(LockHandle::isLeaseLost);
		held.forEach(LockHandle::release);
	}

	@Test
	void minimumHoldAcknowledgedByTheReplicaIsOnItWhenTheReleaseReturns() {
		RedisLockClient client = client(true, 1);
		String key = TestRedis.uniqueKey("min-hold-acked");
		client.lock(key, NO_WAIT.withMinHoldTime(Duration.ofSeconds(5))).release();
		assertThat(servers.replicaRedis.opsForValue().get(key)).as("the key on the replica").startsWith("released:");
	}

	@Test
	void minimumHoldKeptByAReleaseRetriedInTheBackgroundIsAcknowledgedToo() {
		RedisLockClient client = client(true, 1);
		String key = TestRedis.uniqueKey("min-hold-retried-acked");
		RedisLockCommands commands = client.commands();
		assertThat(commands.acquire(key, "holder", 30_000, null, 0, 1, false).granted()).isTrue();
		long waitsBefore = waitCalls();
		// What a release retried in the background sends (PendingReleases).
		assertThat(commands.leaveQueue(key, "holder", 5_000)).isEqualTo(ReleaseOutcome.KEPT_FOR_MIN_HOLD);
		assertThat(waitCalls() - waitsBefore).as("WAIT calls").isEqualTo(1);
		assertThat(servers.replicaRedis.opsForValue().get(key)).as("the key on the replica")
			.isEqualTo("released:holder");
	}

	@Test
	void minimumHoldThatASleepingReplicaDoesNotAcknowledgeIsReportedAtRelease() {
		RedisLockClient client = client(true, 1);
		String key = TestRedis.uniqueKey("min-hold-unacked");
		LockHandle handle = client.lock(key, NO_WAIT.withMinHoldTime(Duration.ofSeconds(5)));
		servers.sleepReplica(Duration.ofSeconds(3));
		assertThatExceptionOfType(ReplicaAcknowledgementException.class).isThrownBy(handle::release)
			.withMessageContaining(key)
			.withMessageContaining("minimum hold")
			.withMessageContaining("acknowledged by 0 of 1 replicas within 1000ms")
			.satisfies((ex) -> assertThat(ex.getOperation()).isEqualTo(LockUnavailableException.RELEASE));
		assertThat(client.monitor().heldLocks()).as("held locks after the release").isEmpty();
		assertThat(client(true, 0).tryLock(key, NO_WAIT)).as("kept for the minimum hold on the master").isEmpty();
	}

	private static long waitCalls() {
		Matcher calls = Pattern.compile("cmdstat_wait:calls=(\\d+)")
			.matcher(RedisAdminCommands.text(servers.master, "INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

	private static boolean closed(LockHandle handle) {
		handle.close();
		return true;
	}

	private RedisLockClient client(boolean sharedConnection, int replicas) {
		return client(sharedConnection, replicas, Duration.ofSeconds(30), TIMEOUT);
	}

	private RedisLockClient client(boolean sharedConnection, int replicas, Duration renewalLease) {
		return client(sharedConnection, replicas, renewalLease, RENEWAL_TIMEOUT);
	}

	private RedisLockClient client(boolean sharedConnection, int replicas, Duration renewalLease,
			Duration acknowledgementTimeout) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(servers.master.host(), servers.master.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.setShareNativeConnection(sharedConnection);
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate redis = TestRedis.template(factory);
		RedisLockClient client = RedisLockClient.builder(redis)
			.releaseMessages(true)
			.replicaAcknowledgement(replicas, acknowledgementTimeout)
			.renewalLease(renewalLease)
			.build();
		client.start();
		client.monitor()
			.releaseSubscription()
			.ifPresent((subscription) -> await().atMost(Duration.ofSeconds(10)).until(subscription::isSubscribed));
		this.opened.add(0, factory::destroy);
		this.opened.add(0, client);
		return client;
	}

}
