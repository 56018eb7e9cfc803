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

package dev.distlock.faults;

import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;

/**
 * The application the faults are tried on: non-web Spring Boot with Boot's Redis and AOP
 * auto-configuration and distlock's, as a user of the starter gets them, plus one bean
 * with a {@code @DistributedLock(onNotAcquired = SKIP)} method, and in worker JVMs
 * ({@code faults.worker=true}) a listener that reports callers starting to wait. Worker
 * JVMs run it; scenarios that need no separate process run it in the test JVM.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
		DistributedLockAutoConfiguration.class })
public class FaultApplication {

	/**
	 * Starts the application.
	 * @param properties {@code name=value} pairs, such as
	 * {@code spring.data.redis.port=6390}
	 * @return the running context, to close
	 */
	public static ConfigurableApplicationContext start(List<String> properties) {
		return start(properties, new Class<?>[0]);
	}

	/**
	 * Starts the application with further beans, such as a listener.
	 * @param properties {@code name=value} pairs
	 * @param beans further bean or configuration classes
	 * @return the running context, to close
	 */
	public static ConfigurableApplicationContext start(List<String> properties, Class<?>... beans) {
		return new SpringApplicationBuilder(FaultApplication.class).sources(beans)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	@Bean
	SkippingJob skippingJob() {
		return new SkippingJob();
	}

	@Bean
	@ConditionalOnProperty("faults.worker")
	WaitingReporter waitingReporter() {
		return new WaitingReporter();
	}

}
