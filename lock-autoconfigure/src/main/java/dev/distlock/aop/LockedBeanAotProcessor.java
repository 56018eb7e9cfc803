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
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.distlock.DistributedLock;
import dev.distlock.LockFailureAction;

/**
 * Registers, for a native image, what distlock reflects on in each bean with
 * {@link DistributedLock @DistributedLock} methods: the locked methods, which the advisor
 * finds and the proxy calls by reflection; the types whose methods a key expression (of
 * {@code key} or {@code keys}) calls on a parameter or a bean
 * ({@link KeyExpressionTargets}); the methods a {@code fallbackMethod} may name, looked
 * up on the bean class and called by reflection ({@link FallbackMethod}); and the return
 * types of which a skipped call creates an empty value by reflection ({@link SkipValues}:
 * arrays, and collections Spring cannot create directly).
 * <p>
 * Methods are found as {@link LockDefinitionSource} finds them, on the bean class, so a
 * fallback declared in a subclass of the locked method's class is found too; a
 * {@code @Reflective} processor on the annotation would only see the annotated method.
 * Spring registers the methods of a class it proxies with CGLIB as well; these hints do
 * not depend on how the bean is proxied, and cover the non-public methods of its
 * superclasses. Registered in {@code META-INF/spring/aot.factories}.
 */
class LockedBeanAotProcessor implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(beanClass, DistributedLock.class)) {
			return null;
		}
		List<Consumer<ReflectionHints>> registrations = new ArrayList<>();
		Set<Class<?>> types = new LinkedHashSet<>();
		types.add(beanClass);
		types.addAll(ClassUtils.getAllInterfacesForClassAsSet(beanClass));
		for (Class<?> type : types) {
			ReflectionUtils.doWithMethods(type,
					(method) -> registrations.addAll(registrations(method, beanClass, registeredBean.getBeanFactory())),
					ReflectionUtils.USER_DECLARED_METHODS);
		}
		if (registrations.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> registrations
			.forEach((registration) -> registration.accept(generationContext.getRuntimeHints().reflection()));
	}

	private static List<Consumer<ReflectionHints>> registrations(Method method, Class<?> beanClass,
			ConfigurableBeanFactory beanFactory) {
		Method specificMethod = AopUtils.getMostSpecificMethod(method, beanClass);
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specificMethod, DistributedLock.class);
		if (annotation == null) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		}
		if (annotation == null) {
			return List.of();
		}
		List<Consumer<ReflectionHints>> registrations = new ArrayList<>();
		registrations.add((hints) -> hints.registerMethod(method, ExecutableMode.INVOKE));
		registrations.add((hints) -> hints.registerMethod(specificMethod, ExecutableMode.INVOKE));
		List<String> expressions = new ArrayList<>(List.of(annotation.keys()));
		expressions.add(annotation.key());
		for (String expression : expressions) {
			for (Class<?> target : KeyExpressionTargets.find(specificMethod, expression, beanFactory)) {
				registrations.add((hints) -> hints.registerType(target, MemberCategory.INVOKE_PUBLIC_METHODS));
			}
		}
		String fallbackName = annotation.fallbackMethod().trim();
		if (!fallbackName.isEmpty()) {
			for (Method candidate : ReflectionUtils.getUniqueDeclaredMethods(beanClass,
					(named) -> named.getName().equals(fallbackName))) {
				registrations.add((hints) -> hints.registerMethod(candidate, ExecutableMode.INVOKE));
			}
		}
		if (annotation.onNotAcquired() == LockFailureAction.SKIP
				|| annotation.onUnavailable() == LockFailureAction.SKIP) {
			Class<?> returnType = specificMethod.getReturnType();
			if (returnType.isArray()) {
				registrations.add((hints) -> hints.registerType(returnType));
			}
			else if (isConcreteCollectionOrMap(returnType)) {
				registrations
					.add((hints) -> hints.registerType(returnType, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS));
			}
		}
		return registrations;
	}

	private static boolean isConcreteCollectionOrMap(Class<?> type) {
		return (Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)) && !type.isInterface()
				&& !Modifier.isAbstract(type.getModifiers());
	}

}
