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

package dev.distlock.sample.demo;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.sample.SampleApplication;

/**
 * Several instances of the sample application in one JVM, each a full Spring Boot
 * application context with its own web server on a random port, as separate processes
 * would be. They share only what their configuration points at: the same Redis server and
 * the same database make them a cluster. Used by the demo and by the tests.
 */
public final class SampleInstances implements AutoCloseable {

	private final List<ConfigurableApplicationContext> contexts;

	private SampleInstances(List<ConfigurableApplicationContext> contexts) {
		this.contexts = contexts;
	}

	/**
	 * Starts instances one after the other, each on a random port.
	 * @param count how many instances
	 * @param customizer adds sources, initializers and the like to each instance's
	 * builder
	 * @param arguments command line arguments of every instance, such as
	 * {@code --spring.data.redis.url=redis://127.0.0.1:6379}; they take precedence over
	 * {@code application.properties}
	 * @return the running instances
	 */
	public static SampleInstances start(int count, UnaryOperator<SpringApplicationBuilder> customizer,
			List<String> arguments) {
		List<ConfigurableApplicationContext> contexts = new ArrayList<>();
		try {
			for (int i = 1; i <= count; i++) {
				List<String> args = new ArrayList<>(arguments);
				args.add(0, "--server.port=0");
				args.add(1, "--spring.application.name=sample-" + i);
				SpringApplicationBuilder builder = customizer
					.apply(new SpringApplicationBuilder(SampleApplication.class));
				contexts.add(builder.run(args.toArray(String[]::new)));
			}
		}
		catch (RuntimeException ex) {
			new SampleInstances(contexts).close();
			throw ex;
		}
		return new SampleInstances(contexts);
	}

	/**
	 * Returns how many instances there are.
	 * @return the number of instances
	 */
	public int size() {
		return this.contexts.size();
	}

	/**
	 * Returns the application context of an instance.
	 * @param index the instance, from 0
	 * @return its context
	 */
	public ConfigurableApplicationContext context(int index) {
		return this.contexts.get(index);
	}

	/**
	 * Returns a bean of an instance.
	 * @param <T> the bean type
	 * @param index the instance, from 0
	 * @param type the bean type
	 * @return the bean
	 */
	public <T> T bean(int index, Class<T> type) {
		return context(index).getBean(type);
	}

	/**
	 * Returns the base URI of an instance's web server.
	 * @param index the instance, from 0
	 * @return for example {@code http://127.0.0.1:41234}
	 */
	public URI baseUri(int index) {
		Integer port = context(index).getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		return URI.create("http://127.0.0.1:" + port);
	}

	/**
	 * Closes every instance, the last started first.
	 */
	@Override
	public void close() {
		RuntimeException failure = null;
		for (int i = this.contexts.size() - 1; i >= 0; i--) {
			try {
				this.contexts.get(i).close();
			}
			catch (RuntimeException ex) {
				failure = (failure != null) ? failure : ex;
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}
