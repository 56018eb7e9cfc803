package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.distlock.test.redis.RedisTestServers;

/**
 * Two lock clients, as two instances of an application would have, on the shared test
 * server: started before each test, closed after it. Register it with
 * {@code @RegisterExtension final TwoLockClients clients = new TwoLockClients();}.
 */
final class TwoLockClients implements BeforeEachCallback, AfterEachCallback {

	private static final Duration RENEWAL_LEASE = Duration.ofSeconds(30);

	private LockFixture first;

	private LockFixture second;

	@Override
	public void beforeEach(ExtensionContext context) {
		this.first = LockFixture.start(RedisTestServers.shared(), RENEWAL_LEASE);
		this.second = LockFixture.start(RedisTestServers.shared(), RENEWAL_LEASE);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		try {
			this.first.close();
		}
		finally {
			this.second.close();
		}
	}

	/** Returns the first client's fixture. */
	LockFixture first() {
		return this.first;
	}

	/** Returns the second client's fixture. */
	LockFixture second() {
		return this.second;
	}

}
