package dev.distlock.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.distlock.redis.RedisLockMonitor;

/**
 * Health of distributed locking: {@code UP} when Redis answers the lock's connection, has
 * the lock scripts (those it lost are loaded again) and lets the client lock, queue, hand
 * over and release a key of its own (every permission a lock needs), and, with pub/sub
 * waiting, the release channel is subscribed; {@code DOWN} with details otherwise, and
 * while the last lock command was refused for a misconfiguration (a missing permission,
 * wrong credentials), with what to fix. On a cluster with sharded hand-over messages, a
 * channel is subscribed per slot only while a caller waits on that slot, so no
 * subscription is normal: the details give the slots subscribed now, those waited on but
 * not yet subscribed, and whether the cluster pub/sub connection is open, and the status
 * is {@code DOWN} only while the client is stopped or a slot waited on has stayed
 * unsubscribed for longer than a failover takes to recover. Details also give the number
 * of locks held and callers waiting.
 */
public class DistributedLockHealthIndicator implements HealthIndicator {

	private final RedisLockMonitor monitor;

	/**
	 * Creates an indicator.
	 * @param monitor the monitor of the lock client, which knows its release
	 * subscription, if any
	 */
	public DistributedLockHealthIndicator(RedisLockMonitor monitor) {
		this.monitor = monitor;
	}

	@Override
	public Health health() {
		Health.Builder builder = Health.up();
		try {
			Map<String, String> scripts = new LinkedHashMap<>();
			this.monitor.checkScripts().forEach((name, present) -> scripts.put(name, present ? "present" : "loaded"));
			builder.withDetail("scripts", scripts);
			this.monitor.checkLocking();
			builder.withDetail("locking", "ok");
		}
		catch (RuntimeException ex) {
			builder.down(ex);
		}
		this.monitor.misconfiguration().ifPresent((fix) -> builder.down().withDetail("misconfiguration", fix));
		this.monitor.releaseSubscription().ifPresent((subscription) -> {
			boolean subscribed = subscription.isSubscribed();
			builder.withDetail("releaseSubscription",
					Map.of("channel", subscription.channel(), "subscribed", subscribed));
			if (!subscribed) {
				builder.down();
			}
		});
		this.monitor.shardedReleaseSubscription().ifPresent((sharded) -> {
			Map<String, Object> detail = new LinkedHashMap<>();
			detail.put("sharded", true);
			detail.put("running", sharded.running());
			detail.put("subscribedSlots", sharded.subscribedSlots());
			detail.put("pendingSlots", sharded.pendingSlots());
			detail.put("connected", sharded.connected());
			if (!sharded.overdueSlots().isEmpty()) {
				detail.put("overdueSlots", sharded.overdueSlots());
			}
			builder.withDetail("releaseSubscription", detail);
			if (!sharded.isHealthy()) {
				builder.down();
			}
		});
		return builder.withDetail("heldLocks", this.monitor.heldLocks().size())
			.withDetail("waiters", this.monitor.waiters().size())
			.build();
	}

}
