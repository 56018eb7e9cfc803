package dev.distlock.redis.contract;

import java.util.List;
import java.util.Optional;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * A client that takes every lock of one key through the multi-key methods of another, as
 * a list of that one key, so that the lock contract runs through them.
 */
public final class KeyListLockClient implements LockClient {

	private final LockClient client;

	/**
	 * Creates the wrapper.
	 * @param client the client whose multi-key methods take every lock
	 */
	public KeyListLockClient(LockClient client) {
		this.client = client;
	}

	@Override
	public LockOptions defaultOptions() {
		return this.client.defaultOptions();
	}

	@Override
	public LockOptions defaultOptions(String name) {
		return this.client.defaultOptions(name);
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		return this.client.tryLock(List.of(key), options);
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		return this.client.lock(List.of(key), options);
	}

}
