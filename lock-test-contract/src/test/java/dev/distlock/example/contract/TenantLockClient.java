package dev.distlock.example.contract;

import java.util.Optional;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * A wrapper such as an application might write around the {@link LockClient} bean: it
 * keeps the locks of each tenant apart by putting the tenant in front of every key.
 */
class TenantLockClient implements LockClient {

	private final String tenant;

	private final LockClient delegate;

	TenantLockClient(String tenant, LockClient delegate) {
		this.tenant = tenant;
		this.delegate = delegate;
	}

	@Override
	public LockOptions defaultOptions() {
		return this.delegate.defaultOptions();
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		return this.delegate.tryLock(tenantKey(key), options);
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		return this.delegate.lock(tenantKey(key), options);
	}

	private String tenantKey(String key) {
		return "tenant:" + this.tenant + ":" + key;
	}

}
