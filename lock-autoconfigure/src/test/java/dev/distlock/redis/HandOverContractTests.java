package dev.distlock.redis;

/**
 * The lock contract for the client as auto-configured: waiters queued in Redis and handed
 * the lock by the release, locks passed between the client's threads without Redis, and
 * auto-renewing leases for calls without a lease time.
 */
class HandOverContractTests extends AbstractFixtureContractTests {

	@Override
	int maxLocalPasses() {
		return RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES;
	}

}
