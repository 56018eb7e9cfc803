package dev.distlock.autoconfigure;

import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisClusterDeployment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a Redis Cluster, {@code WAIT} cannot be sent on the node connection that wrote the
 * lock, so {@code distlock.replication.min-replicas-acked} fails startup, naming the
 * property, rather than counting acknowledgements on a connection that wrote nothing. The
 * control starts and locks on the same cluster without it.
 */
class ReplicaAcknowledgementOnClusterTests {

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start(3, 1);
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	private ApplicationContextRunner runner() {
		String nodes = cluster.nodes()
			.stream()
			.map((node) -> node.host() + ":" + node.port())
			.collect(Collectors.joining(","));
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
					DistributedLockAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes, "spring.data.redis.timeout=2s");
	}

	@Test
	void replicaAcknowledgementFailsStartupOnACluster() {
		runner().withPropertyValues("distlock.replication.min-replicas-acked=1").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("distlock.replication.min-replicas-acked")
				.hasMessageContaining("Redis Cluster");
		});
	}

	@Test
	void controlWithoutAcknowledgementLocksOnTheCluster() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(RedisLockClient.class).lock("cluster:ack-control").close();
		});
	}

}
