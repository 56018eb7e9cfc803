package dev.distlock.sample.redis;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Where the embedded Redis is not on the class path, as in the application jar: fails the
 * startup with {@link EmbeddedRedisUnavailableException} if no Redis is configured
 * either, rather than let Spring Boot fall back to {@code localhost:6379}.
 * <p>
 * It reads the properties when the context starts, not through a condition: the
 * ahead-of-time processed application decides its conditions once, at build time, and the
 * jar is started both with and without a Redis configured. It fails before the context
 * starts anything that connects to Redis.
 */
@Component
@ConditionalOnMissingClass(EmbeddedRedisAvailability.SERVER_CLASS)
class RedisConfiguredCheck implements InitializingBean {

	private final Environment environment;

	RedisConfiguredCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterPropertiesSet() {
		if (NoRedisConfiguredCondition.redisSetting(this.environment) == null) {
			throw EmbeddedRedisUnavailableException.noRedisConfigured();
		}
	}

}
