package dev.distlock.redlock.contract;

/**
 * The lock contract for the RedLock client on 5 independent {@code redis-server}
 * processes.
 */
class FiveNodeRedLockContractTests extends RedLockContractTests {

	@Override
	int nodeCount() {
		return 5;
	}

}
