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

package dev.distlock.aop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AliasFor;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.ReflectionUtils;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The logical name of a lock: from the annotation or its method, carried to the handle
 * and the listeners; {@link LockOptions#UNNAMED} for programmatic calls that give none.
 */
class LockNameTests {

	private final LockDefinitionSource source = new LockDefinitionSource(new LockKeyEvaluator(null),
			new MockEnvironment().withProperty("app.lock-name", "from-placeholder"));

	@Test
	void defaultNameIsTheDeclaringClassAndMethod() {
		assertThat(definition("unnamed").name()).isEqualTo("Named.unnamed");
	}

	@Test
	void annotationNameIsUsedWithPlaceholdersResolved() {
		assertThat(definition("named").name()).isEqualTo("stock");
		assertThat(definition("placeholder").name()).isEqualTo("from-placeholder");
	}

	@Test
	void metaAnnotationCanSetTheName() {
		assertThat(definition("composed").name()).isEqualTo("sku");
	}

	@Test
	void optionsAreUnnamedUnlessNamed() {
		LockOptions options = LockOptions.renewing(Duration.ZERO);
		assertThat(options.name()).isEqualTo(LockOptions.UNNAMED);
		assertThat(options.withName("report").name()).isEqualTo("report");
		assertThat(options.withName("report").withWaitTime(Duration.ofSeconds(1)).name()).isEqualTo("report");
		assertThat(new LockOptions(Duration.ZERO, Duration.ofSeconds(1)).name()).isEqualTo(LockOptions.UNNAMED);
		assertThatIllegalArgumentException().isThrownBy(() -> options.withName(" "));
	}

	@Test
	void handlesAndListenersGetTheNameOfTheAnnotatedMethodOrTheOptions() {
		String id = TestRedis.uniqueKey("named");
		LockTestContexts.withSharedRedis()
			.withPropertyValues("app.lock-name=from-placeholder")
			.withUserConfiguration(Config.class)
			.run((context) -> {
				context.getBean(Named.class).named(id);
				context.getBean(Named.class).unnamed(id);
				LockClient client = context.getBean(LockClient.class);
				try (LockHandle handle = client.lock(id,
						LockOptions.renewing(Duration.ZERO).withName("programmatic"))) {
					assertThat(handle.name()).isEqualTo("programmatic");
				}
				try (LockHandle handle = client.lock(id)) {
					assertThat(handle.name()).isEqualTo(LockOptions.UNNAMED);
				}
				assertThat(context.getBean(Names.class).acquired).containsExactly("stock", "Named.unnamed",
						"programmatic", LockOptions.UNNAMED);
			});
	}

	private LockDefinition definition(String methodName) {
		Method method = ReflectionUtils.findMethod(Named.class, methodName, String.class);
		LockDefinition definition = this.source.find(method, Named.class);
		assertThat(definition).isNotNull();
		return definition;
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Named named() {
			return new Named();
		}

		@Bean
		Names names() {
			return new Names();
		}

	}

	static class Names implements LockListener {

		final List<String> acquired = new CopyOnWriteArrayList<>();

		@Override
		public void acquired(LockHandle handle, Duration waited) {
			this.acquired.add(handle.name());
		}

	}

	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock
	@interface SkuLock {

		@AliasFor(annotation = DistributedLock.class, attribute = "key")
		String sku();

		@AliasFor(annotation = DistributedLock.class, attribute = "name")
		String name() default "sku";

	}

	static class Named {

		@DistributedLock(key = "'name:' + #id")
		public void unnamed(String id) {
		}

		@DistributedLock(key = "'name:' + #id", name = "stock")
		public void named(String id) {
		}

		@DistributedLock(key = "'name:' + #id", name = "${app.lock-name}")
		public void placeholder(String id) {
		}

		@SkuLock(sku = "'name:' + #id")
		public void composed(String id) {
		}

	}

}
