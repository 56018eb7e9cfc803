package dev.distlock.autoconfigure.actuate;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code distlock} health indicator.
 */
@ConfigurationProperties("distlock.health")
public class DistributedLockHealthProperties {

	/**
	 * How long a health request waits for Redis to answer the checks before it reports
	 * DOWN, whatever the command timeout (spring.data.redis.timeout). A check not
	 * answered in time goes on in the background, and no other starts before it ends.
	 */
	private Duration timeout = Duration.ofSeconds(2);

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

}
