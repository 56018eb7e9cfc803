package dev.distlock.memory.contract;

import java.time.Duration;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for the in-memory client, as {@code distlock.store=in-memory}
 * configures it: the same suite as for the Redis client, unchanged.
 */
class InMemoryContractTests extends AbstractLockClientContractTests {

	private final LockClient client = InMemoryLockClient.builder()
		.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
		.renewalLease(Duration.ofSeconds(3))
		.build();

	@Override
	protected LockClient client() {
		return this.client;
	}

}
