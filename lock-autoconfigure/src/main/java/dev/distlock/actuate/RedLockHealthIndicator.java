package dev.distlock.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.distlock.redlock.RedLockClient;

/**
 * Health of the RedLock nodes ({@code distlock.store=redlock}): each node, by its
 * property and server, {@code UP} if it answered a PING within the timeout, else
 * {@code DOWN}; the indicator is {@code UP} while a majority of the nodes answers, since
 * locks are granted then, and {@code DOWN} otherwise.
 */
public class RedLockHealthIndicator implements HealthIndicator {

	private final RedLockClient client;

	private final Duration timeout;

	/**
	 * Creates the indicator.
	 * @param client the RedLock client whose nodes are checked
	 * @param timeout how long to wait for each node
	 */
	public RedLockHealthIndicator(RedLockClient client, Duration timeout) {
		this.client = client;
		this.timeout = timeout;
	}

	@Override
	public Health health() {
		Map<String, Boolean> answered = this.client.pingNodes(this.timeout);
		Map<String, String> nodes = new LinkedHashMap<>();
		answered.forEach((node, up) -> nodes.put(node, up ? "UP" : "DOWN"));
		long answering = answered.values().stream().filter(Boolean::booleanValue).count();
		int majority = answered.size() / 2 + 1;
		Health.Builder builder = (answering >= majority) ? Health.up() : Health.down();
		return builder.withDetail("nodes", nodes)
			.withDetail("answering", answering)
			.withDetail("majority", majority)
			.build();
	}

}
