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

package dev.distlock.virtualthreads;

import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;

/**
 * The application under test: non-web Spring Boot with Boot's Redis, AOP and task
 * execution auto-configuration and distlock's, with
 * {@code spring.threads.virtual.enabled} so that Boot's {@code applicationTaskExecutor}
 * starts a virtual thread per task, and {@link LockedCounters} whose increments run under
 * distributed locks. The test JVM runs it, and so does the {@link VirtualThreadWorker}
 * JVM.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
		TaskExecutionAutoConfiguration.class, DistributedLockAutoConfiguration.class })
public class VirtualThreadApplication {

	/**
	 * Starts the application on a Redis server with virtual threads enabled.
	 * @param redisPort the port of the Redis server on 127.0.0.1
	 * @return the running context, to close
	 */
	public static ConfigurableApplicationContext start(int redisPort) {
		List<String> properties = List.of("spring.threads.virtual.enabled=true", "spring.data.redis.host=127.0.0.1",
				"spring.data.redis.port=" + redisPort);
		return new SpringApplicationBuilder(VirtualThreadApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	@Bean
	LockedCounters lockedCounters(StringRedisTemplate redis, LockClient locks) {
		return new LockedCounters(redis, locks);
	}

}
