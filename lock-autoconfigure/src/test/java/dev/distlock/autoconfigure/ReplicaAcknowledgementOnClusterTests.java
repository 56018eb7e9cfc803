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

package dev.distlock.autoconfigure;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * On a Redis Cluster through Lettuce, {@code distlock.replication.min-replicas-acked}
 * sends the acquire script and {@code WAIT} over the write connection to the master of
 * the lock's slot: the auto-configuration starts with it and a grant is on the slot
 * master's replica before the body runs, a hand-over too. With that replica asleep
 * (connected, so that a {@code WAIT} on a connection that wrote nothing would count it at
 * once) the grant fails with the count and the key is free again, which shows that
 * {@code WAIT} ran on the connection that wrote the grant; the control without
 * acknowledgement grants in the same state. Renewal batches are acknowledged on the slot
 * master's connection too: those the sleeping replica does not acknowledge leave the
 * hold's deadline where it was, although the master applied them.
 */
class ReplicaAcknowledgementOnClusterTests {

	/** Renewed every 400ms. */
	private static final Duration SHORT_LEASE = Duration.ofMillis(1200);

	private static final LockOptions NO_WAIT = LockOptions.renewing(Duration.ZERO);

	private static final Pattern REPLICA_PORT = Pattern.compile("slave0:ip=[^,]+,port=(\\d+)");

	private static RedisClusterDeployment cluster;

	private final List<AutoCloseable> opened = new ArrayList<>();

	private Socket sleeping;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start(3, 1);
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@AfterEach
	void closeClients() throws Exception {
		if (this.sleeping != null) {
			this.sleeping.setSoTimeout(30_000);
			this.sleeping.getInputStream().read();
			this.sleeping.close();
		}
		for (AutoCloseable closeable : this.opened) {
			closeable.close();
		}
	}

	@Test
	void autoConfigurationWithAcknowledgementLocksOnTheCluster() {
		String key = "cluster:ack-auto";
		RedisServerProcess replica = replicaOfMasterOf(key);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
					DistributedLockAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.cluster.nodes=" + cluster.clusterNodes(),
					"spring.data.redis.timeout=2s", "distlock.replication.min-replicas-acked=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				try (LockHandle handle = context.getBean(RedisLockClient.class).lock(key, NO_WAIT)) {
					assertThat(onReplica(replica, key)).as("the replica applied the grant before the body").isTrue();
				}
			});
	}

	@Test
	void grantAcknowledgedByTheSlotMastersReplicaIsOnItWhenTheBodyRuns() {
		RedisLockClient client = client(1);
		for (String key : List.of("cluster:acked:a", "cluster:acked:b", "cluster:acked:c")) {
			RedisServerProcess replica = replicaOfMasterOf(key);
			try (LockHandle handle = client.lock(key, NO_WAIT)) {
				assertThat(onReplica(replica, key)).as("%s on the replica before the body", key).isTrue();
			}
		}
	}

	@Test
	void grantThatTheSleepingReplicaDoesNotAcknowledgeFailsAndIsReleased() {
		RedisLockClient client = client(1);
		String key = "cluster:unacked";
		connect(client, key);
		sleep(replicaOfMasterOf(key));
		AtomicInteger bodyRuns = new AtomicInteger();
		assertThatExceptionOfType(ReplicaAcknowledgementException.class)
			.isThrownBy(() -> client.run(key, NO_WAIT, bodyRuns::incrementAndGet))
			.withMessageContaining(key)
			.withMessageContaining("acknowledged by 0 of 1 replicas within 100ms")
			.withMessageContaining("distlock.replication.min-replicas-acked");
		assertThat(bodyRuns).hasValue(0);
		assertThat(client(0).tryLock(key, NO_WAIT)).as("the key is free again").isPresent();
	}

	@Test
	void controlWithoutAcknowledgementGrantsWhileTheReplicaSleeps() {
		RedisLockClient client = client(0);
		String key = "cluster:control";
		connect(client, key);
		sleep(replicaOfMasterOf(key));
		AtomicInteger bodyRuns = new AtomicInteger();
		client.run(key, NO_WAIT, bodyRuns::incrementAndGet);
		assertThat(bodyRuns).hasValue(1);
	}

	@Test
	void handOverIsOnTheReplicaBeforeTheBody() throws Exception {
		RedisLockClient holder = client(0);
		RedisLockClient waiter = client(1);
		String key = "cluster:hand-over";
		RedisServerProcess replica = replicaOfMasterOf(key);
		LockHandle held = holder.lock(key, NO_WAIT);
		CompletableFuture<Boolean> waited = CompletableFuture
			.supplyAsync(() -> waiter.tryLock(key, LockOptions.renewing(Duration.ofSeconds(10)))
				.map((handle) -> onReplica(replica, key) && closed(handle))
				.orElse(false));
		await().atMost(Duration.ofSeconds(5)).until(() -> waiter.monitor().waiters().size() == 1);
		held.close();
		assertThat(waited.get(10, TimeUnit.SECONDS)).as("handed over, and on the replica before the body").isTrue();
	}

	@Test
	void handOverThatTheSleepingReplicaDoesNotAcknowledgeFails() {
		RedisLockClient holder = client(0);
		RedisLockClient waiter = client(1);
		String key = "cluster:hand-over-unacked";
		LockHandle held = holder.lock(key, NO_WAIT);
		CompletableFuture<Boolean> waited = CompletableFuture
			.supplyAsync(() -> waiter.tryLock(key, LockOptions.renewing(Duration.ofSeconds(10))).isPresent());
		await().atMost(Duration.ofSeconds(5)).until(() -> waiter.monitor().waiters().size() == 1);
		sleep(replicaOfMasterOf(key));
		held.close();
		assertThat(waited).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(ReplicaAcknowledgementException.class);
		assertThat(holder.tryLock(key, NO_WAIT)).as("the key is free again").isPresent();
	}

	@Test
	void renewalsThatTheSleepingReplicaDoesNotAcknowledgeDoNotExtendTheHold() {
		RedisLockClient client = client(1, SHORT_LEASE);
		String key = "cluster:renewal-unacked";
		LockHandle handle = client.lock(key, NO_WAIT);
		sleep(replicaOfMasterOf(key));
		long asleep = System.nanoTime();
		await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5)).until(handle::isLeaseLost);
		long lostAfter = (System.nanoTime() - asleep) / 1_000_000;
		long masterPttl = (Long) RedisAdminCommands.call(cluster.masterOf(key), "PTTL", key);
		assertThat(masterPttl).as("PTTL on the master when the lease was lost: renewed there").isGreaterThan(200);
		assertThat(lostAfter).as("ms from the replica's sleep to isLeaseLost()")
			.isLessThanOrEqualTo(SHORT_LEASE.toMillis() + 50);
	}

	@Test
	void renewalsAcknowledgedByTheSlotMastersReplicaKeepTheHold() {
		RedisLockClient client = client(1, SHORT_LEASE);
		String key = "cluster:renewal-acked";
		try (LockHandle handle = client.lock(key, NO_WAIT)) {
			await().during(SHORT_LEASE.multipliedBy(2))
				.atMost(SHORT_LEASE.multipliedBy(2).plusSeconds(1))
				.until(() -> !handle.isLeaseLost());
			assertThat(onReplica(replicaOfMasterOf(key), key)).as("the key on the replica").isTrue();
		}
	}

	private static boolean closed(LockHandle handle) {
		handle.close();
		return true;
	}

	/**
	 * Whether the replica has the key: KEYS, which a replica answers without READONLY.
	 */
	private static boolean onReplica(RedisServerProcess replica, String key) {
		Object keys = RedisAdminCommands.call(replica, "KEYS", key);
		return keys instanceof List<?> list && list.size() == 1;
	}

	private static RedisServerProcess replicaOfMasterOf(String key) {
		Matcher port = REPLICA_PORT.matcher(RedisAdminCommands.text(cluster.masterOf(key), "INFO", "replication"));
		assertThat(port.find()).as("the master of %s has a replica", key).isTrue();
		return cluster.nodes()
			.stream()
			.filter((node) -> node.port() == Integer.parseInt(port.group(1)))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Locks and releases the key once, while every node answers: the client has loaded
	 * the cluster's topology (which asks every node, the replica to be put to sleep too)
	 * and opened its connection to the key's master. Else the first lock of the test
	 * could wait for a topology load held up by the sleeping replica until it wakes, and
	 * then be acknowledged (CI failed so once).
	 */
	private static void connect(RedisLockClient client, String key) {
		client.run(key, NO_WAIT, () -> {
		});
	}

	/** Puts the replica to sleep for 3 s, and returns once it no longer answers. */
	private void sleep(RedisServerProcess replica) {
		try {
			this.sleeping = new Socket(replica.host(), replica.port());
			send(this.sleeping, "DEBUG SLEEP 3");
			await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> asleep(replica));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static boolean asleep(RedisServerProcess replica) throws IOException {
		try (Socket probe = new Socket(replica.host(), replica.port())) {
			probe.setSoTimeout(100);
			send(probe, "PING");
			probe.getInputStream().read();
			return false;
		}
		catch (SocketTimeoutException ex) {
			return true;
		}
	}

	private static void send(Socket socket, String command) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private RedisLockClient client(int replicas) {
		return client(replicas, Duration.ofSeconds(30));
	}

	private RedisLockClient client(int replicas, Duration renewalLease) {
		ClusterClientOptions options = ClusterClientOptions.builder()
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(Arrays.asList(cluster.clusterNodes().split(","))),
				LettuceClientConfiguration.builder()
					.commandTimeout(Duration.ofSeconds(2))
					.clientOptions(options)
					.build());
		factory.afterPropertiesSet();
		factory.start();
		StringRedisTemplate redis = new StringRedisTemplate(factory);
		RedisLockClient client = RedisLockClient.builder(redis)
			.clusterSlots(true)
			.releaseMessages(true)
			.replicaAcknowledgement(replicas, Duration.ofMillis(100))
			.renewalLease(renewalLease)
			.build();
		client.start();
		this.opened.add(0, factory::destroy);
		this.opened.add(0, client);
		return client;
	}

}
