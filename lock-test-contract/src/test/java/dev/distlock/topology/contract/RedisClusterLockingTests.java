package dev.distlock.topology.contract;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

import dev.distlock.test.redis.RedisClusterDeployment;

/**
 * Locks on a Redis Cluster of 3 masters and 3 replicas, through the lock client Spring
 * Boot auto-configures from {@code spring.data.redis.cluster.nodes} alone: the lock
 * contract with release messages and with backoff, with and without locks passed between
 * an instance's threads, and annotated methods of two instances. One cluster serves every
 * nested class.
 */
class RedisClusterLockingTests {

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start();
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	static List<String> connection() {
		return List.of("spring.data.redis.cluster.nodes=" + cluster.clusterNodes());
	}

	@Nested
	class HandOverContract extends AbstractBootContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		String[] settings() {
			return new String[0];
		}

	}

	@Nested
	class NoLocalPassingContract extends AbstractBootContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		String[] settings() {
			return new String[] { "distlock.waiting.max-local-passes=0" };
		}

	}

	@Nested
	class BackoffContract extends AbstractBootContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		String[] settings() {
			return new String[] { "distlock.waiting.pub-sub=false" };
		}

	}

	@Nested
	class TwoAnnotatedInstances extends AbstractTwoInstanceLockingTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

	}

}
