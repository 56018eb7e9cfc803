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

package dev.distlock.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.DistributedLock;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * What a user sees when an application fails to start because of distlock: Spring Boot's
 * failure report, with a description and an action, not a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTests {

	@Test
	void propertyOutOfRange(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(Application.class, "--distlock.renewal.lease=0s"));
		assertThat(output).contains(String.format("""
				Description:

				Binding to target %s failed:

				    Property: distlock.renewal.lease
				    Value: "PT0S"
				    Origin: "distlock.renewal.lease" from property source "commandLineArgs"
				    Reason: distlock.renewal.lease must be between 3ms and 106751d, but is 0s


				Action:

				Update your application's configuration
				""", DistributedLockProperties.class.getName()).replace("\n", System.lineSeparator()));
	}

	@Test
	void malformedDurationSaysWhichFormsAreAccepted(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(Application.class, "--distlock.wait-time=5 seconds"));
		assertThat(output).contains(String.format("""
				Description:

				Property distlock.wait-time is not a duration: its value "5 seconds" ("distlock.wait-time" from \
				property source "commandLineArgs") could not be read as one.

				Action:

				Write distlock.wait-time as a number and a unit, such as 500ms, 5s, 2m, 1h or 1d (units ns, us, ms, \
				s, m, h, d; a number alone counts as milliseconds), or ISO-8601, such as PT5S or PT1M30S.
				""").replace("\n", System.lineSeparator()));
	}

	@Test
	void malformedDurationOfANamedLockSaysWhichFormsAreAccepted(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> run(LockedApplication.class, "--distlock.locks[LockedService.work].lease-time=ten"));
		assertThat(output).contains("Property distlock.locks[LockedService.work].lease-time is not a duration")
			.contains("Write distlock.locks[LockedService.work].lease-time as a number and a unit, such as 500ms, 5s");
	}

	@Test
	void malformedValueOfAnotherTypeIsLeftToSpringBoot(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(Application.class, "--distlock.replication.min-replicas-acked=two"));
		assertThat(output).contains("Property: distlock.replication.min-replicas-acked")
			.doesNotContain("is not a duration");
	}

	@Test
	void settingOfANamedLockOutOfRange(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> run(LockedApplication.class, "--distlock.locks[LockedService.work].wait-time=-1s"));
		assertThat(output).contains(String.format("""
				Description:

				Binding to target %s failed:

				    Property: distlock.locks[LockedService.work].waitTime
				    Value: "PT-1S"
				    Origin: "distlock.locks[LockedService.work].wait-time" from property source "commandLineArgs"
				    Reason: distlock.locks[LockedService.work].wait-time must be zero or more, but is -1s


				Action:

				Update your application's configuration
				""", DistributedLockProperties.class.getName()).replace("\n", System.lineSeparator()));
	}

	@Test
	void unknownLockName(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(LockedApplication.class, "--distlock.locks.stok.wait-time=0"));
		assertThat(output).contains("""
				Description:

				No @DistributedLock method has the lock name "stok" configured under distlock.locks; the \
				@DistributedLock methods have the names "LockedService.work"

				Action:

				Correct the name under distlock.locks (a name with dots goes in brackets, as in \
				distlock.locks[StockService.decrement]), or, for a lock taken only in code with \
				LockClient.defaultOptions(name), set distlock.locks.<name>.programmatic=true.
				""".replace("\n", System.lineSeparator()));
	}

	@Test
	void malformedAnnotation(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(PrivateMethodApplication.class));
		assertThat(output).contains(String.format("""
				Description:

				Invalid @DistributedLock on %s.work(String): it is private, and Spring's proxies never intercept \
				private methods, so it would run without its lock.

				Action:

				Make it public and call it through the bean (from another bean, not from the same one).
				""", PrivateMethod.class.getName()).replace("\n", System.lineSeparator()));
	}

	@Test
	void lockedMethodsWithoutRedis(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(NoRedisApplication.class));
		assertThat(output).contains(String.format("""
				Description:

				Bean '%s' has @DistributedLock methods but there is no LockClient bean

				Action:

				Configure Redis (spring.data.redis.*) so that distlock can create one, or define a LockClient bean.
				""", "lockedService").replace("\n", System.lineSeparator()));
	}

	@Test
	void severalConnectionFactoriesAndNoneChosen(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(TwoConnectionsApplication.class));
		assertThat(output).contains("""
				Description:

				distlock cannot tell which RedisConnectionFactory to use: there are 2 (firstRedis, secondRedis) \
				and none is @Primary or annotated with @DistributedLockConnectionFactory

				Action:

				Mark the one the application uses by default @Primary, or annotate the one distlock should use \
				with @dev.distlock.autoconfigure.DistributedLockConnectionFactory.
				""".replace("\n", System.lineSeparator()));
	}

	@Test
	void clusterKeyPrefixThatSplitsALocksKeys(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(Application.class, "--spring.data.redis.cluster.nodes=127.0.0.1:1",
				"--distlock.key-prefix=app{"));
		assertThat(output).contains("""
				Description:

				distlock.key-prefix "app{" opens a Redis Cluster hash tag with '{' that it does not fill and close, \
				so a lock's keys would fall into different slots

				Action:

				Remove the '{' from distlock.key-prefix, or close the tag, for example "{app}:" to keep every lock \
				in one slot.
				""".replace("\n", System.lineSeparator()));
	}

	private static void run(Class<?> application, String... args) {
		SpringApplication springApplication = new SpringApplication(application);
		springApplication.setWebApplicationType(WebApplicationType.NONE);
		springApplication.setLogStartupInfo(false);
		springApplication.setDefaultProperties(
				Map.of("spring.data.redis.url", RedisTestServers.shared().url(), "spring.main.banner-mode", "off"));
		springApplication.run(args).close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
			DistributedLockAutoConfiguration.class })
	static class Application {

	}

	@Configuration(proxyBeanMethods = false)
	static class PrivateMethodApplication extends Application {

		@Bean
		PrivateMethod privateMethod() {
			return new PrivateMethod();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LockedApplication extends Application {

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class NoRedisApplication {

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class TwoConnectionsApplication {

		@Bean
		LettuceConnectionFactory firstRedis() {
			return new LettuceConnectionFactory(RedisTestServers.shared().host(), RedisTestServers.shared().port());
		}

		@Bean
		LettuceConnectionFactory secondRedis() {
			return new LettuceConnectionFactory(RedisTestServers.shared().host(), RedisTestServers.shared().port());
		}

	}

	static class LockedService {

		@DistributedLock(key = "#id")
		public void work(String id) {
		}

	}

	static class PrivateMethod {

		@DistributedLock(key = "#id")
		private void work(String id) {
		}

	}

}
