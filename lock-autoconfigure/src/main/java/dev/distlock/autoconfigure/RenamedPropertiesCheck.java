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

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Fails the application context, before any bean is created, when a {@code distlock.*}
 * property is set under a name it no longer has, so that it is not ignored in silence:
 * {@code distlock.waiting.max-local-hand-offs}, renamed
 * {@code distlock.waiting.max-local-passes}. The configuration metadata marks the old
 * name as an error as well, for IDEs.
 */
final class RenamedPropertiesCheck implements BeanFactoryPostProcessor, Ordered {

	/** The old name of {@link #NEW_LOCAL_PASSES}. */
	static final String OLD_LOCAL_PASSES = "distlock.waiting.max-local-hand-offs";

	/** The name of the number of local passes in a row. */
	static final String NEW_LOCAL_PASSES = "distlock.waiting.max-local-passes";

	private final Environment environment;

	RenamedPropertiesCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		// A failure in the handler comes wrapped in a BindException that names the
		// property and where it was set, as Spring Boot reports a value it cannot bind.
		Binder.get(this.environment).bind(OLD_LOCAL_PASSES, Bindable.of(String.class), new BindHandler() {

			@Override
			public Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Object result) {
				throw new IllegalArgumentException(
						OLD_LOCAL_PASSES + " was renamed " + NEW_LOCAL_PASSES + ": set that instead");
			}

		});
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 1;
	}

}
