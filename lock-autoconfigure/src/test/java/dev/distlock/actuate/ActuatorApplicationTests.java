/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
