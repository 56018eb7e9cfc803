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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.util.TestSocketUtils;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockContext;
import dev.distlock.redis.ReactiveRedisLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redlock.ReactiveRedLockClient;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code distlock.store=redlock} configures a {@link RedLockClient} on the nodes of
 * {@code distlock.redlock.nodes}, behind the same {@code @DistributedLock} and
 * {@link LockClient}; and bad configurations fail startup with a message that names the
 * property and what to do. Against real {@code redis-server} processes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class RedLockAutoConfigurationTests {

	/**
	 * Fresh servers that never granted a lock: their grants count at once, as with
	 * appendfsync always; the restart delay has its own test below.
	 */
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distlock.store=redlock", "distlock.redlock.appendfsync-always=true");

	private final List<RedisServerProcess> servers = new ArrayList<>();

	@BeforeAll
	void startServers() {
		for (int i = 0; i < 4; i++) {
			this.servers.add(RedisServerProcess.startOnFreePort());
		}
	}

	@AfterAll
	void stopServers() {
		this.servers.forEach(RedisServerProcess::close);
	}

	private String url(RedisServerProcess server) {
		return "redis://" + server.host() + ":" + server.port();
	}

	private String nodes(int count) {
		List<String> urls = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			urls.add(url(this.servers.get(i)));
		}
		return "distlock.redlock.nodes=" + String.join(",", urls);
	}

	@Test
	void redlockStoreLocksAnnotatedMethodsOnTheNodesWithAFencingToken() {
		this.runner.withPropertyValues(nodes(3)).withBean(LockedService.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(LockClient.class)
				.hasSingleBean(RedLockClient.class)
				.doesNotHaveBean(RedisLockClient.class);
			LockedService service = context.getBean(LockedService.class);
			long first = service.fencingToken("1");
			assertThat(service.fencingToken("1")).isGreaterThan(first);
		});
	}

	@Test
	void freshNodesCountOnlyOnceUpForTheLongestLeaseUnlessEveryNodeRunsAppendfsyncAlways() {
		// The servers started less than the renewal lease (1h) ago.
		this.runner
			.withPropertyValues(nodes(3), "distlock.redlock.appendfsync-always=false", "distlock.renewal.lease=1h")
			.run((context) -> {
				RedLockClient client = context.getBean(RedLockClient.class);
				assertThat(client.quarantinedNodes()).hasSize(3);
				assertThat(client.tryLock("fresh", new LockOptions(Duration.ZERO, Duration.ofSeconds(1)))).isEmpty();
				assertThat(client.nodeOutcomes()).allMatch((node) -> node.granted() == 0);
			});
		this.runner
			.withPropertyValues(nodes(3), "distlock.redlock.appendfsync-always=true", "distlock.renewal.lease=1h")
			.run((context) -> assertThat(context.getBean(RedLockClient.class).quarantinedNodes()).isEmpty());
	}

	@Test
	void fewerThanThreeNodesFailStartupNamingTheProperty() {
		this.runner.withPropertyValues(nodes(2))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(BindValidationException.class)
				.hasMessageContaining("distlock.redlock.nodes must list at least 3 independent Redis masters")
				.hasMessageContaining("but lists 2"));
	}

	@Test
	void theSameServerTwiceFailsStartupNamingBothEntries() {
		String url = url(this.servers.get(0));
		this.runner.withPropertyValues("distlock.redlock.nodes=" + url + "," + url(this.servers.get(1)) + "," + url)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(BindValidationException.class)
				.hasMessageContaining("distlock.redlock.nodes[2] and distlock.redlock.nodes[0] name the same server"));
	}

	@Test
	void theSameServerUnderTwoNamesFailsStartupByItsRunId() {
		RedisServerProcess server = this.servers.get(0);
		this.runner
			.withPropertyValues("distlock.redlock.nodes=" + url(server) + ",redis://localhost:" + server.port() + ","
					+ url(this.servers.get(1)))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessageContaining("are the same Redis server")
				.hasMessageContaining("distlock.redlock.nodes[1]"));
	}

	@Test
	void nodeTimeoutNotWellBelowTheShortestLeaseFailsStartup() {
		this.runner.withPropertyValues(nodes(3), "distlock.lease-time=1s", "distlock.redlock.node-timeout=200ms")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(BindValidationException.class)
				.hasMessageContaining("distlock.redlock.node-timeout must be at most a tenth of the shortest lease, "
						+ "distlock.lease-time (1s)"));
	}

	@Test
	void malformedNodeUrlFailsStartupNamingTheEntry() {
		this.runner.withPropertyValues(nodes(2) + ",localhost:6379")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.redlock.nodes[2] must be a Redis URL"));
	}

	@Test
	void aReplicaFailsStartupNamingTheNode() {
		RedisServerProcess master = this.servers.get(0);
		try (RedisServerProcess replica = RedisServerProcess.startOnFreePort("--replicaof", master.host(),
				String.valueOf(master.port()))) {
			this.runner
				.withPropertyValues("distlock.redlock.nodes=" + url(this.servers.get(1)) + "," + url(replica) + ","
						+ url(this.servers.get(2)))
				.run((context) -> assertThat(context).getFailure()
					.rootCause()
					.isInstanceOf(DistributedLockConfigurationException.class)
					.hasMessageContaining("distlock.redlock.nodes[1]")
					.hasMessageContaining("not a master"));
		}
	}

	@Test
	void aClusterNodeFailsStartupNamingTheNode() throws Exception {
		Path directory = Files.createTempDirectory("redlock-cluster-node");
		// A cluster bus port of its own: the default, port + 10000, fails above 55535.
		try (RedisServerProcess clusterNode = RedisServerProcess.startOnFreePort("--cluster-enabled", "yes",
				"--cluster-port", String.valueOf(TestSocketUtils.findAvailableTcpPort()), "--cluster-config-file",
				directory.resolve("nodes.conf").toString())) {
			this.runner
				.withPropertyValues("distlock.redlock.nodes=" + url(clusterNode) + "," + url(this.servers.get(1)) + ","
						+ url(this.servers.get(2)))
				.run((context) -> assertThat(context).getFailure()
					.rootCause()
					.isInstanceOf(DistributedLockConfigurationException.class)
					.hasMessageContaining("distlock.redlock.nodes[0]")
					.hasMessageContaining("is a Redis Cluster node"));
		}
	}

	@Test
	void aNodeDownAtStartupIsLoggedAndLocksStillWork(CapturedOutput output) throws Exception {
		try (RedisServerProcess down = RedisServerProcess.startOnFreePort()) {
			down.stop();
			this.runner
				.withPropertyValues("distlock.redlock.nodes=" + url(this.servers.get(0)) + "," + url(down) + ","
						+ url(this.servers.get(1)))
				.withBean(LockedService.class)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(LockedService.class).fencingToken("down")).isPositive();
				});
			assertThat(output)
				.contains("distlock.redlock.nodes[1] (127.0.0.1:" + down.port() + ") does not answer at startup");
		}
	}

	@Test
	void aMajorityDownAtStartupFailsStartup() throws Exception {
		try (RedisServerProcess downA = RedisServerProcess.startOnFreePort();
				RedisServerProcess downB = RedisServerProcess.startOnFreePort()) {
			downA.stop();
			downB.stop();
			this.runner
				.withPropertyValues(
						"distlock.redlock.nodes=" + url(downA) + "," + url(this.servers.get(0)) + "," + url(downB))
				.run((context) -> assertThat(context).getFailure()
					.rootCause()
					.isInstanceOf(DistributedLockConfigurationException.class)
					.hasMessageContaining("Only 1 of the 3 RedLock nodes answer at startup"));
		}
	}

	@Test
	void anEvenNumberOfNodesIsWarnedAbout(CapturedOutput output) {
		this.runner.withPropertyValues(nodes(4)).run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("distlock.redlock.nodes lists 4 nodes: an even number tolerates no more failed "
				+ "nodes than 3 would");
	}

	@Test
	void sharedLocksAreRefusedNamingTheLockAndWhy() {
		this.runner.withPropertyValues(nodes(3)).run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(
					() -> client.tryLock("report", client.defaultOptions("Reports.refresh").withMode(LockMode.READ)))
				.withMessageContaining("Reports.refresh")
				.withMessageContaining("distlock.store=redlock locks exclusively only");
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> client.tryLock("report", client.defaultOptions().withPermits(3)))
				.withMessageContaining("a semaphore of 3 permits");
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> client.tryLock("report",
						new LockOptions(Duration.ZERO, Duration.ofSeconds(5), Duration.ofSeconds(1))))
				.withMessageContaining("minimum hold time");
		});
	}

	@Test
	void annotatedReadLockFailsStartupNamingTheMethod() {
		this.runner.withPropertyValues(nodes(3))
			.withBean(ReadLockedService.class)
			.run((context) -> assertThat(context).getFailure()

				.isInstanceOf(InvalidLockDefinitionException.class)
				.hasMessageContaining("ReadLockedService.read")
				.hasMessageContaining("the READ side of a read-write lock")
				.hasMessageContaining("distlock.store=redlock locks exclusively only"));
	}

	@Test
	void annotatedSemaphoreFailsStartupNamingTheMethod() {
		this.runner.withPropertyValues(nodes(3))
			.withBean(SemaphoreService.class)
			.run((context) -> assertThat(context).getFailure()

				.isInstanceOf(InvalidLockDefinitionException.class)
				.hasMessageContaining("SemaphoreService.export")
				.hasMessageContaining("a semaphore of 3 permits"));
	}

	@Test
	void configuredMinimumHoldTimeFailsStartupNamingTheMethodAndTheProperty() {
		this.runner.withPropertyValues(nodes(3), "distlock.locks[svc].min-hold-time=1s")
			.withBean(NamedService.class)
			.run((context) -> assertThat(context).getFailure()

				.isInstanceOf(InvalidLockDefinitionException.class)
				.hasMessageContaining("NamedService.run")
				.hasMessageContaining("minimum hold time of 1s")
				.hasMessageContaining("distlock.locks[svc]"));
	}

	@Test
	void annotatedReactiveMethodsLockOnTheNodesWithTheFencingTokenInTheirContext() {
		this.runner.withPropertyValues(nodes(3)).withBean(ReactiveService.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(ReactiveLockClient.class)
				.hasSingleBean(ReactiveRedLockClient.class)
				.doesNotHaveBean(ReactiveRedisLockClient.class);
			ReactiveService service = context.getBean(ReactiveService.class);
			LockClient blocking = context.getBean(LockClient.class);
			List<Object> seen = service.load(blocking).block(Duration.ofSeconds(10));
			assertThat(seen).as("fencing token, and whether the blocking client got the key meanwhile")
				.hasSize(2)
				.element(1)
				.isEqualTo(Boolean.FALSE);
			List<Long> tokens = service.token().concatWith(service.token()).collectList().block(Duration.ofSeconds(10));
			assertThat(tokens).hasSize(2).allMatch((token) -> token > (Long) seen.get(0));
			assertThat(tokens.get(1)).isGreaterThan(tokens.get(0));
			LockHandle after = blocking.tryLock("load", LockOptions.renewing(Duration.ZERO)).orElseThrow();
			assertThat(after.fencingToken()).as("blocking and reactive grants share one sequence")
				.isGreaterThan(tokens.get(1));
			after.release();
		});
	}

	@Test
	void reactiveClientBacksOffWithoutReactorOrBesideTheApplicationsOwn() {
		this.runner.withPropertyValues(nodes(3))
			.withClassLoader(new FilteredClassLoader(Mono.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedLockClient.class)
				.doesNotHaveBean(ReactiveLockClient.class));
		this.runner.withPropertyValues(nodes(3))
			.withUserConfiguration(ReactiveLockClientAutoConfigurationTests.OwnReactiveClient.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(ReactiveRedLockClient.class);
				assertThat(context.getBean(ReactiveLockClient.class))
					.isSameAs(ReactiveLockClientAutoConfigurationTests.OwnReactiveClient.CLIENT);
			});
	}

	public static class ReactiveService {

		/** Holds "load", reads its token, and asks the blocking client for the key. */
		@DistributedLock("'load'")
		public Mono<List<Object>> load(LockClient blocking) {
			return ReactiveLockContext.fencingToken()
				.map((token) -> List.of(token,
						blocking.tryLock("load", LockOptions.renewing(Duration.ZERO)).map((held) -> {
							held.release();
							return Boolean.TRUE;
						}).orElse(Boolean.FALSE)));
		}

		@DistributedLock("'load'")
		public Flux<Long> token() {
			return Flux.from(ReactiveLockContext.fencingToken());
		}

	}

	public static class ReadLockedService {

		@DistributedLock(key = "'report'", mode = LockMode.READ)
		public void read() {
		}

	}

	public static class SemaphoreService {

		@DistributedLock(key = "'export'", permits = 3)
		public void export() {
		}

	}

	public static class NamedService {

		@DistributedLock(key = "'svc'", name = "svc")
		public void run() {
		}

	}

	public static class LockedService {

		@DistributedLock("'svc:' + #id")
		public long fencingToken(String id) {
			return LockContext.fencingToken();
		}

	}

}
