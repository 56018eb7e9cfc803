package dev.distlock.redis;

/**
 * The lock contract for a client that never passes a lock between its threads without
 * Redis: every hold is handed over through the queue in Redis.
 */
class NoLocalPassingContractTests extends AbstractFixtureContractTests {

	@Override
	int maxLocalPasses() {
		return 0;
	}

}
