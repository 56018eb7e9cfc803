package dev.distlock.actuate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.distlock.actuate.ActuatorTestApplication.Jobs;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

/**
 * What the actuator tests share: the application on a random port against the shared
 * Redis, its {@link Jobs} bean, and a second lock client standing for another instance of
 * the application.
 */
abstract class ActuatorApplicationTests {

	static LettuceConnectionFactory otherConnection;

	static RedisLockClient otherInstance;

	@LocalServerPort
	int port;

	@Autowired
	Jobs jobs;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		ActuatorTestApplication.redis(registry, RedisTestServers.shared());
	}

	@BeforeAll
	static void startOtherInstance() {
		otherConnection = TestRedis.connectionFactory(RedisTestServers.shared());
		otherInstance = RedisLockClient.builder(TestRedis.template(otherConnection)).build();
	}

	@AfterAll
	static void stopOtherInstance() {
		otherInstance.close();
		otherConnection.destroy();
	}

}
