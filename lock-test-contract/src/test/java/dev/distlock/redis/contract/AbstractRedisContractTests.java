package dev.distlock.redis.contract;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import dev.distlock.LockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for a {@link RedisLockClient} built, as an application would build
 * one, through its public builder, on a connection of its own to the shared test Redis; a
 * subclass configures the builder.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRedisContractTests extends AbstractLockClientContractTests {

	private ContractRedisClient redis;

	/**
	 * Sets what the client under test does differently from the builder's defaults.
	 * @param builder the builder of the client
	 */
	abstract void configure(RedisLockClientBuilder builder);

	@BeforeAll
	void start() {
		this.redis = ContractRedisClient.start(this::configure);
	}

	@AfterAll
	void stop() {
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Override
	protected LockClient client() {
		return this.redis.client;
	}

}
