package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import dev.distlock.LockClient;
import dev.distlock.test.redis.RedisTestServers;

/**
 * The lock contract for a client wired as the auto-configuration wires it
 * ({@link LockFixture}), with a short renewal lease; a subclass chooses how many local
 * passes it allows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractFixtureContractTests extends AbstractLockClientContractTests {

	private LockFixture fixture;

	/**
	 * Returns how many times in a row the client may pass a lock between its threads.
	 * @return the limit, 0 for none
	 */
	abstract int maxLocalPasses();

	@BeforeAll
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(3), maxLocalPasses());
	}

	@AfterAll
	void stop() {
		this.fixture.close();
	}

	@Override
	protected LockClient client() {
		return this.fixture.client;
	}

}
