package dev.distlock.redis;

/**
 * The lock contract for a client that never passes a lock between its threads without Redis:
 * every hand-off goes through the queue in Redis.
 */
class RedisHandOffOnlyContractTests extends AbstractFixtureContractTests {

	@Override
	int maxLocalPasses() {
		return 0;
	}

}
