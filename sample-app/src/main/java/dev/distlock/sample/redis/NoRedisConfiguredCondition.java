package dev.distlock.sample.redis;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;

/**
 * Matches when the application configures no Redis of its own: none of
 * {@code spring.data.redis.host}, {@code spring.data.redis.url},
 * {@code spring.data.redis.sentinel.master} or {@code spring.data.redis.cluster.nodes} is
 * set (in any property source: a profile's file, an environment variable such as
 * {@code SPRING_DATA_REDIS_HOST}, a command line argument), and
 * {@code sample.embedded-redis.enabled} is not {@code false}.
 */
class NoRedisConfiguredCondition extends NoneNestedConditions {

	NoRedisConfiguredCondition() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnProperty("spring.data.redis.host")
	static class HostConfigured {

	}

	@ConditionalOnProperty("spring.data.redis.url")
	static class UrlConfigured {

	}

	@ConditionalOnProperty("spring.data.redis.sentinel.master")
	static class SentinelConfigured {

	}

	@ConditionalOnProperty("spring.data.redis.cluster.nodes")
	static class ClusterConfigured {

	}

	@ConditionalOnBooleanProperty(name = "sample.embedded-redis.enabled", havingValue = false)
	static class EmbeddedRedisDisabled {

	}

}
