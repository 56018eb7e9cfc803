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

import org.aopalliance.aop.Advice;

import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationUtils;

import dev.distlock.DistributedLock;

/**
 * Applies the {@link DistributedLockInterceptor} to methods that carry
 * {@link DistributedLock @DistributedLock}, directly, through a meta-annotation or on an
 * interface they implement.
 * <p>
 * Its {@linkplain #DEFAULT_ORDER default order} puts the lock outside Spring's
 * {@code @Transactional} advisor (which has {@link Ordered#LOWEST_PRECEDENCE}), so a lock
 * is taken before the transaction begins and released after it commits.
 */
public class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	/**
	 * The default order: ahead of the transaction advisor, so the lock wraps the commit.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private final Pointcut pointcut;

	private final DistributedLockInterceptor interceptor;

	/**
	 * Creates an advisor.
	 * @param definitions finds the locks of methods
	 * @param interceptor the interceptor to apply
	 * @param order the order of this advisor among the others on the same method
	 */
	public DistributedLockAdvisor(LockDefinitionSource definitions, DistributedLockInterceptor interceptor, int order) {
		this.pointcut = new LockPointcut(definitions);
		this.interceptor = interceptor;
		setOrder(order);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

	private static final class LockPointcut extends StaticMethodMatcherPointcut {

		private final LockDefinitionSource definitions;

		LockPointcut(LockDefinitionSource definitions) {
			this.definitions = definitions;
			setClassFilter((type) -> AnnotationUtils.isCandidateClass(type, DistributedLock.class));
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return this.definitions.find(method, targetClass) != null;
		}

	}

}
