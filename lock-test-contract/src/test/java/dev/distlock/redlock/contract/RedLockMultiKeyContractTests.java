package dev.distlock.redlock.contract;

import dev.distlock.LockClient;
import dev.distlock.redis.contract.KeyListLockClient;

/**
 * The lock contract for the RedLock client's locks of several keys, taken key by key (the
 * {@link LockClient} default): every lock of the suite is taken as a list of its one key,
 * on 3 {@code redis-server} processes.
 */
class RedLockMultiKeyContractTests extends RedLockContractTests {

	private LockClient keyListClient;

	@Override
	protected LockClient client() {
		if (this.keyListClient == null) {
			this.keyListClient = new KeyListLockClient(super.client());
		}
		return this.keyListClient;
	}

}
