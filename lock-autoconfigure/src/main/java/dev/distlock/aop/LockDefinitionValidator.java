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

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockClient;
import dev.distlock.reactive.ReactiveLockClient;

/**
 * Checks every {@link DistributedLock @DistributedLock} method of each bean as the bean
 * is created, so that a malformed annotation fails the application context at startup
 * instead of the first call, and that a {@link LockClient} exists to serve the locks, and
 * a {@link ReactiveLockClient} for methods that return {@code Mono}, {@code Flux} or
 * {@code CompletionStage}. Across beans, it checks that methods locking the same key
 * expression lock it the same way ({@code LockKeyKinds}): all exclusive, all read-write,
 * or all semaphores of one size. Beans created later (lazy or prototype beans) are
 * checked when they are created.
 */
public class LockDefinitionValidator implements BeanPostProcessor {

	private static final String REACTOR = "reactor.core.publisher.Mono";

	private final LockDefinitionSource definitions;

	private final ListableBeanFactory beanFactory;

	private final Supplier<String> missingClientAdvice;

	private final Function<Method, ? extends RuntimeException> missingReactiveClient;

	private final Set<Class<?>> checked = ConcurrentHashMap.newKeySet();

	private final LockKeyKinds keyKinds = new LockKeyKinds();

	/**
	 * Creates a validator.
	 * @param definitions parses the annotations
	 * @param beanFactory where a {@link LockClient} bean must be defined
	 * @param missingClientAdvice what to do when there is none, asked only then
	 */
	public LockDefinitionValidator(LockDefinitionSource definitions, ListableBeanFactory beanFactory,
			Supplier<String> missingClientAdvice) {
		this(definitions, beanFactory, missingClientAdvice,
				(method) -> new InvalidLockDefinitionException(method,
						"it returns " + method.getReturnType().getSimpleName()
								+ ", whose lock is held by a ReactiveLockClient, and there is none",
						"Define a ReactiveLockClient bean.", null));
	}

	/**
	 * Creates a validator that also checks that a {@link ReactiveLockClient} bean exists
	 * for methods returning {@code Mono}, {@code Flux} or {@code CompletionStage}.
	 * @param definitions parses the annotations
	 * @param beanFactory where the lock client beans must be defined
	 * @param missingClientAdvice what to do when there is no {@link LockClient}, asked
	 * only then
	 * @param missingReactiveClient the failure of a method that needs a
	 * {@link ReactiveLockClient} when there is none, asked only then
	 */
	public LockDefinitionValidator(LockDefinitionSource definitions, ListableBeanFactory beanFactory,
			Supplier<String> missingClientAdvice, Function<Method, ? extends RuntimeException> missingReactiveClient) {
		this.definitions = definitions;
		this.beanFactory = beanFactory;
		this.missingClientAdvice = missingClientAdvice;
		this.missingReactiveClient = missingReactiveClient;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
		if (this.checked.add(type) && AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
			AtomicBoolean locked = new AtomicBoolean();
			List<Method> reactive = new ArrayList<>();
			ReflectionUtils.doWithMethods(type, (method) -> {
				LockDefinition definition = this.definitions.find(method, type);
				if (definition != null) {
					locked.set(true);
					this.keyKinds.register(definition);
					if (LockReturnTypes.kindOf(definition.method()).isReactive()
							|| CoroutineMethods.isCoroutine(definition.method())) {
						reactive.add(definition.method());
					}
				}
			}, ReflectionUtils.USER_DECLARED_METHODS);
			if (locked.get()) {
				checkLockClient(beanName);
			}
			if (!reactive.isEmpty()) {
				checkReactiveLockClient(reactive.get(0));
			}
		}
		return bean;
	}

	private void checkReactiveLockClient(Method method) {
		boolean reactor = ClassUtils.isPresent(REACTOR, method.getDeclaringClass().getClassLoader());
		if (!reactor || this.beanFactory.getBeanNamesForType(ReactiveLockClient.class, true, false).length == 0) {
			throw this.missingReactiveClient.apply(method);
		}
	}

	private void checkLockClient(String beanName) {
		if (this.beanFactory.getBeanNamesForType(LockClient.class, true, false).length == 0) {
			throw new DistributedLockConfigurationException(
					"Bean '" + beanName + "' has @DistributedLock methods " + "but there is no LockClient bean",
					StringUtils.capitalize(this.missingClientAdvice.get()) + ".");
		}
	}

}
