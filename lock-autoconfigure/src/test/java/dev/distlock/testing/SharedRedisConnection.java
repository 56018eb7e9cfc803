package dev.distlock.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.test.redis.RedisTestServers;

/**
 * A connection to the shared test Redis for the tests of one class, opened before they
 * run and closed after:
 * {@code @RegisterExtension static final SharedRedisConnection REDIS = new SharedRedisConnection();}
 */
public final class SharedRedisConnection implements BeforeAllCallback, AfterAllCallback {

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate template;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.connectionFactory = TestRedis.connectionFactory(RedisTestServers.shared());
		this.template = TestRedis.template(this.connectionFactory);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.connectionFactory.destroy();
	}

	/**
	 * Returns the template on the connection.
	 * @return the template
	 */
	public StringRedisTemplate template() {
		Assert.state(this.template != null, "Connection not open yet: use it from tests or @BeforeAll methods");
		return this.template;
	}

}
