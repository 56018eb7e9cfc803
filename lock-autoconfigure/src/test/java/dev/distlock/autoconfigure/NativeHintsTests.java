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

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.distlock.actuate.DistributedLockEndpoint;
import dev.distlock.actuate.ForceReleasingDistributedLockEndpoint;
import dev.distlock.aop.LockKeyRootObject;
import dev.distlock.autoconfigure.actuate.DistributedLockEndpointAutoConfiguration;
import dev.distlock.autoconfigure.actuate.DistributedLockEndpointProperties;
import dev.distlock.autoconfigure.actuate.DistributedLockHealthContributorAutoConfiguration;
import dev.distlock.autoconfigure.metrics.DistributedLockMetricsAutoConfiguration;
import dev.distlock.redis.monitor.HeldLockInfo;
import dev.distlock.redis.monitor.LockHolderInfo;
import dev.distlock.testing.AheadOfTimeHints;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the ahead-of-time processing of an application with distlock, as the build
 * of a native image runs it, registers everything distlock reads or calls by reflection
 * at run time: its hints from {@code META-INF/spring/aot.factories}, and those Spring
 * generates for distlock's failure analyzers, configuration properties and endpoint.
 */
class NativeHintsTests {

	/** Where the Lua scripts of the lock are, on the class path. */
	private static final String SCRIPTS = "dev/distlock/redis/";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
				DistributedLockAutoConfiguration.class, DistributedLockEndpointAutoConfiguration.class,
				DistributedLockHealthContributorAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class))
		// Never connected to: ahead-of-time processing creates no connection factory.
		.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:1",
				"management.endpoints.web.exposure.include=distlock");

	@Test
	void everyLuaScriptIsAResourceOfTheImage() throws IOException {
		RuntimeHints hints = AheadOfTimeHints.of(this.runner);
		Resource[] scripts = new PathMatchingResourcePatternResolver().getResources("classpath*:" + SCRIPTS + "*.lua");
		assertThat(scripts).as("scripts on the class path").isNotEmpty();
		for (Resource script : scripts) {
			assertThat(RuntimeHintsPredicates.resource().forResource(SCRIPTS + script.getFilename()))
				.as(script.getFilename())
				.accepts(hints);
		}
	}

	@Test
	void scriptsAndRootObjectAreRegisteredWithoutTheAutoConfiguration() {
		// A RedisLockClient built by hand needs its scripts as much as the
		// auto-configured
		// one: hence aot.factories rather than @ImportRuntimeHints on the
		// auto-configuration.
		RuntimeHints hints = AheadOfTimeHints.of(new ApplicationContextRunner());
		assertThat(RuntimeHintsPredicates.resource().forResource(SCRIPTS + "acquire.lua")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(LockKeyRootObject.class)).accepts(hints);
	}

	@Test
	void keyExpressionsCanReadTheRootObject() {
		RuntimeHints hints = AheadOfTimeHints.of(this.runner);
		List<Method> getters = Arrays.stream(LockKeyRootObject.class.getDeclaredMethods())
			.filter((method) -> Modifier.isPublic(method.getModifiers()))
			.toList();
		assertThat(getters).extracting(Method::getName).contains("getMethodName", "getArgs", "getTargetClass");
		for (Method getter : getters) {
			assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(getter)).as(getter.getName())
				.accepts(hints);
		}
	}

	@Test
	void classesLookedUpByNameCanBeFound() {
		RuntimeHints hints = AheadOfTimeHints.of(this.runner);
		for (String name : List.of(RedisTopology.LETTUCE_CLIENT, "io.lettuce.core.event.EventBus",
				SpringBootCompatibilityCheck.SPRING_BOOT_4_CLASS)) {
			assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name))).as(name).accepts(hints);
		}
		assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(RedisTopology.JEDIS_CLIENT)))
			.as("Jedis, absent from this class path, is not asked for")
			.rejects(hints);
	}

	@Test
	void failureAnalyzersCanBeCreated() {
		RuntimeHints hints = AheadOfTimeHints.of(this.runner);
		for (Class<?> analyzer : List.of(InvalidLockDefinitionFailureAnalyzer.class,
				DistributedLockConfigurationFailureAnalyzer.class)) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(analyzer)
				.withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as(analyzer.getSimpleName())
				.accepts(hints);
		}
	}

	@Test
	void configurationPropertiesCanBeBound() {
		RuntimeHints hints = AheadOfTimeHints.of(this.runner);
		Stream
			.of(DistributedLockProperties.class, DistributedLockProperties.Renewal.class,
					DistributedLockProperties.Waiting.class, DistributedLockEndpointProperties.class,
					DistributedLockEndpointProperties.ForceRelease.class)
			.flatMap((type) -> Arrays.stream(type.getDeclaredMethods()))
			.filter((method) -> Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("set"))
			.forEach((setter) -> assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(setter))
				.as(setter.getDeclaringClass().getSimpleName() + "." + setter.getName())
				.accepts(hints));
	}

	@Test
	void endpointResponsesCanBeWrittenAsJson() {
		RuntimeHints hints = AheadOfTimeHints.of(this.runner);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(DistributedLockEndpoint.class, "locks"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(DistributedLockEndpoint.class, "key"))
			.accepts(hints);
		assertRecordsReadable(hints, DistributedLockEndpoint.LocksDescriptor.class,
				DistributedLockEndpoint.WaiterDescriptor.class, DistributedLockEndpoint.KeyDescriptor.class,
				HeldLockInfo.class, LockHolderInfo.class);
	}

	@Test
	void forceReleaseResponseCanBeWrittenAsJson() {
		RuntimeHints hints = AheadOfTimeHints
			.of(this.runner.withPropertyValues("distlock.endpoint.force-release.enabled=true"));
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ForceReleasingDistributedLockEndpoint.class, "forceRelease")).accepts(hints);
		assertRecordsReadable(hints, ForceReleasingDistributedLockEndpoint.ReleaseDescriptor.class);
	}

	private static void assertRecordsReadable(RuntimeHints hints, Class<?>... records) {
		for (Class<?> type : records) {
			for (RecordComponent component : type.getRecordComponents()) {
				assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(component.getAccessor()))
					.as(type.getSimpleName() + "." + component.getName())
					.accepts(hints);
			}
		}
	}

}
