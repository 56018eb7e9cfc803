package dev.distlock.actuate;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.wait.ReleaseMessageWaiter;
import dev.distlock.redis.wait.ReleaseSubscription;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLockHealthIndicator} against real Redis: the scripts and the release
 * subscription decide the status.
 */
class DistributedLockHealthIndicatorTests {

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	private ReleaseSubscription subscription;

	@BeforeEach
	void start() {
		this.connectionFactory = TestRedis.connectionFactory(RedisTestServers.shared());
		ReleaseMessageWaiter waiter = new ReleaseMessageWaiter(JitteredBackoffWaiter.standard());
		this.client = RedisLockClient.builder(TestRedis.template(this.connectionFactory)).waiter(waiter).build();
		this.subscription = new ReleaseSubscription(this.connectionFactory, this.client.releaseChannel(), waiter);
	}

	@AfterEach
	void stop() throws Exception {
		this.client.close();
		this.subscription.stop();
		this.subscription.destroy();
		this.connectionFactory.destroy();
	}

	@Test
	@SuppressWarnings("unchecked")
	void upWithoutPubSubWhenRedisHasTheScripts() {
		Health health = new DistributedLockHealthIndicator(this.client.monitor(), null).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsOnlyKeys("scripts", "locking", "heldLocks", "waiters")
			.containsEntry("locking", "ok");
		assertThat((Map<String, ?>) health.getDetails().get("scripts")).containsOnlyKeys("acquire", "release", "renew",
				"inspect");
	}

	@Test
	void downUntilTheReleaseChannelIsSubscribed() {
		DistributedLockHealthIndicator indicator = new DistributedLockHealthIndicator(this.client.monitor(),
				this.subscription);
		Health unsubscribed = indicator.health();
		assertThat(unsubscribed.getStatus()).isEqualTo(Status.DOWN);
		assertThat(unsubscribed.getDetails()).containsEntry("releaseSubscription",
				Map.of("channel", this.client.releaseChannel(), "subscribed", false));
		this.subscription.start();
		await().atMost(Duration.ofSeconds(10)).until(this.subscription::isSubscribed);
		Health subscribed = indicator.health();
		assertThat(subscribed.getStatus()).isEqualTo(Status.UP);
		assertThat(subscribed.getDetails()).containsEntry("releaseSubscription",
				Map.of("channel", this.client.releaseChannel(), "subscribed", true));
	}

}
