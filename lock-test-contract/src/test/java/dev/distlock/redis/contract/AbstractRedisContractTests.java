package dev.distlock.redis.contract;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.test.contract.AbstractLockClientContractTests;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.awaitility.Awaitility.await;

/**
 * The lock contract for a {@link RedisLockClient} built, as an application would build
 * one, through its public builder, on a connection of its own to the shared test Redis; a
 * subclass configures the builder.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractRedisContractTests extends AbstractLockClientContractTests {

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	/**
	 * Sets what the client under test does differently from the builder's defaults.
	 * @param builder the builder of the client
	 */
	abstract void configure(RedisLockClientBuilder builder);

	@BeforeAll
	void start() {
		RedisTestServer server = RedisTestServers.shared();
		// Short command timeouts, so that an unreachable server fails fast.
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		RedisLockClientBuilder builder = RedisLockClient.builder(new StringRedisTemplate(this.connectionFactory));
		configure(builder);
		this.client = builder.build();
		this.client.start();
		this.client.monitor()
			.releaseSubscription()
			.ifPresent((subscription) -> await().atMost(Duration.ofSeconds(10)).until(subscription::isSubscribed));
	}

	@AfterAll
	void stop() {
		try {
			if (this.client != null) {
				this.client.close();
			}
		}
		finally {
			if (this.connectionFactory != null) {
				this.connectionFactory.destroy();
			}
		}
	}

	@Override
	protected LockClient client() {
		return this.client;
	}

}
