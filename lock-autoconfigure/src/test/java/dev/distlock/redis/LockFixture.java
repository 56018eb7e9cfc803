package dev.distlock.redis;

import java.time.Duration;
import java.util.function.Consumer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.redis.wait.ReleaseMessageWaiter;
import dev.distlock.redis.wait.ReleaseSubscription;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.testing.TestRedis;

import static org.awaitility.Awaitility.await;

/**
 * A lock client wired as the auto-configuration wires it (queued hand-over by release messages,
 * auto-renewal, local passes between its threads), on its own connection to a test server.
 */
final class LockFixture implements AutoCloseable {

	/** The keyspace of a client without a key prefix on a single server, as fixtures use it. */
	static final LockKeyspace KEYSPACE = new LockKeyspace("", false, RedisLockClientBuilder.DEFAULT_MAX_KEY_LENGTH);

	final LettuceConnectionFactory connectionFactory;

	final StringRedisTemplate redis;

	final ReleaseMessageWaiter waiter;

	final RedisLockClient client;

	final ReleaseSubscription subscription;

	private LockFixture(RedisTestServer server, Duration renewalLease, int maxLocalPasses,
			LockListener... listeners) {
		this(server, (builder) -> {
			builder.renewalLease(renewalLease).maxLocalPasses(maxLocalPasses);
			for (LockListener listener : listeners) {
				builder.listener(listener);
			}
		});
	}

	private LockFixture(RedisTestServer server, Consumer<RedisLockClientBuilder> customizer) {
		this.connectionFactory = TestRedis.connectionFactory(server);
		this.redis = TestRedis.template(this.connectionFactory);
		this.waiter = new ReleaseMessageWaiter(JitteredBackoffWaiter.standard());
		RedisLockClientBuilder builder = RedisLockClient.builder(this.redis)
			.waiter(this.waiter)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)));
		customizer.accept(builder);
		this.client = builder.build();
		this.subscription = new ReleaseSubscription(this.connectionFactory, this.client.releaseChannel(), this.waiter);
		this.subscription.start();
		await().atMost(Duration.ofSeconds(10)).until(this.subscription::isSubscribed);
	}

	static LockFixture start(RedisTestServer server, Duration renewalLease, LockListener... listeners) {
		return new LockFixture(server, renewalLease, RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES, listeners);
	}

	/**
	 * Starts a fixture whose client the customizer may change (its waiter is the release
	 * message waiter unless the customizer sets another).
	 */
	static LockFixture start(RedisTestServer server, Consumer<RedisLockClientBuilder> customizer) {
		return new LockFixture(server, customizer);
	}

	static LockFixture start(RedisTestServer server, Duration renewalLease, int maxLocalPasses) {
		return new LockFixture(server, renewalLease, maxLocalPasses);
	}

	@Override
	public void close() {
		this.client.close();
		this.subscription.stop();
		try {
			this.subscription.destroy();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		this.connectionFactory.destroy();
	}

}
