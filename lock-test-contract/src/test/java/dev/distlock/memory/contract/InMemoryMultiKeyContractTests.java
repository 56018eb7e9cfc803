package dev.distlock.memory.contract;

import java.time.Duration;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.redis.contract.KeyListLockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for locks taken through the default multi-key methods of
 * {@link LockClient}, on the in-memory client, each as a list of one key.
 */
class InMemoryMultiKeyContractTests extends AbstractLockClientContractTests {

	private final LockClient client = new KeyListLockClient(InMemoryLockClient.builder()
		.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
		.renewalLease(Duration.ofSeconds(3))
		.build());

	@Override
	protected LockClient client() {
		return this.client;
	}

}
