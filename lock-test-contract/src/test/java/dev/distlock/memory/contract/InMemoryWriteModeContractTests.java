package dev.distlock.memory.contract;

import java.time.Duration;

import dev.distlock.LockClient;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;

/**
 * The lock contract for the write side of the in-memory client's read-write locks: every
 * acquisition of the suite asks for {@link LockMode#WRITE}, which must keep every
 * guarantee of an exclusive lock (exclusion, hand-over, leases, owner-checked release,
 * re-entry, fencing, interrupts).
 */
class InMemoryWriteModeContractTests extends AbstractLockClientContractTests {

	private final LockClient client = InMemoryLockClient.builder()
		.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
		.renewalLease(Duration.ofSeconds(3))
		.build();

	@Override
	protected LockClient client() {
		return this.client;
	}

	@Override
	protected LockOptions options(LockOptions options) {
		return options.withMode(LockMode.WRITE);
	}

}
