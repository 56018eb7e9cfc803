package dev.distlock.autoconfigure;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Tells whether a connection factory talks to a Redis Cluster, for either client library
 * Spring Data Redis supports, without loading the one that is absent.
 */
final class RedisTopology {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisTopology.class.getClassLoader());

	private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis",
			RedisTopology.class.getClassLoader());

	private RedisTopology() {
	}

	static boolean isCluster(RedisConnectionFactory connectionFactory) {
		if (LETTUCE_PRESENT && connectionFactory instanceof LettuceConnectionFactory lettuce) {
			return lettuce.isClusterAware();
		}
		if (JEDIS_PRESENT && connectionFactory instanceof JedisConnectionFactory jedis) {
			return jedis.isRedisClusterAware();
		}
		return false;
	}

}
