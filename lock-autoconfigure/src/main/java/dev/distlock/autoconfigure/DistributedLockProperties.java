package dev.distlock.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.distlock.aop.DistributedLockAdvisor;

/**
 * Configuration properties of distlock.
 */
@ConfigurationProperties("distlock")
public class DistributedLockProperties {

	/**
	 * Whether @DistributedLock methods are locked. When disabled they run without any lock.
	 */
	private boolean enabled = true;

	/**
	 * How long a caller waits for a lock that someone else holds, where the annotation or
	 * call gives no wait time. Zero means a single attempt.
	 */
	private Duration waitTime = Duration.ofSeconds(5);

	/**
	 * How long Redis keeps a lock that was not released, where the annotation or call gives
	 * no lease time. Should be longer than any locked method runs.
	 */
	private Duration leaseTime = Duration.ofSeconds(30);

	/**
	 * Prefix prepended to every lock key, for example to keep the locks of several
	 * applications apart on one Redis.
	 */
	private String keyPrefix = "";

	/**
	 * Order of the lock advisor among other advisors of the same method. Keep it lower than
	 * the transaction advisor's so that locks are released after the transaction commits.
	 */
	private int order = DistributedLockAdvisor.DEFAULT_ORDER;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	public Duration getLeaseTime() {
		return this.leaseTime;
	}

	public void setLeaseTime(Duration leaseTime) {
		this.leaseTime = leaseTime;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

}
