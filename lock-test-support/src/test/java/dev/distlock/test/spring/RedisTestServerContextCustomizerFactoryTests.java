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

package dev.distlock.test.spring;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.ContextCustomizer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisTestServerContextCustomizerFactory}: which test classes get the
 * customizer, and that they can share one cached context.
 */
class RedisTestServerContextCustomizerFactoryTests {

	private final RedisTestServerContextCustomizerFactory factory = new RedisTestServerContextCustomizerFactory();

	@Test
	void testClassWithoutTheAnnotationIsLeftAlone() {
		assertThat(customizerFor(Plain.class)).isNull();
	}

	@Test
	void annotatedTestClassesGetEqualCustomizers() {
		ContextCustomizer customizer = customizerFor(Annotated.class);
		assertThat(customizer).isInstanceOf(RedisTestServerContextCustomizer.class)
			.isEqualTo(customizerFor(OtherAnnotated.class))
			.hasSameHashCodeAs(customizerFor(OtherAnnotated.class));
	}

	@Test
	void annotationIsFoundOnSuperclassesEnclosingClassesAndAsMetaAnnotation() {
		assertThat(customizerFor(Subclass.class)).isNotNull();
		assertThat(customizerFor(Annotated.Inner.class)).isNotNull();
		assertThat(customizerFor(MetaAnnotated.class)).isNotNull();
	}

	private ContextCustomizer customizerFor(Class<?> testClass) {
		return this.factory.createContextCustomizer(testClass, List.of());
	}

	static class Plain {

	}

	@WithRedisTestServer
	static class Annotated {

		@Nested
		class Inner {

		}

	}

	@WithRedisTestServer
	static class OtherAnnotated {

	}

	static class Subclass extends Annotated {

	}

	@Retention(RetentionPolicy.RUNTIME)
	@WithRedisTestServer
	@interface IntegrationTest {

	}

	@IntegrationTest
	static class MetaAnnotated {

	}

}
