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
import java.util.ArrayDeque;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.annotation.AliasFor;

import dev.distlock.DistributedLock;
import dev.distlock.LockFailureAction;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.testing.AheadOfTimeHints;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that ahead-of-time processing registers, for a native image, the methods of
 * locked beans that distlock finds and calls by reflection
 * ({@link LockedBeanAotProcessor}, from {@code META-INF/spring/aot.factories}).
 */
class LockedBeanHintsTests {

	/**
	 * Hints of the beans alone, without the auto-configuration: for beans it proxies with
	 * CGLIB, Spring registers every method of the class itself, which would hide what the
	 * processor registers. The processor does not depend on how a bean is proxied.
	 */
	private static final RuntimeHints hints = AheadOfTimeHints
		.of(new ApplicationContextRunner().withBean(StockService.class)
			.withBean(DailyReport.class)
			.withBean(InterfaceLockedService.class)
			.withBean(ComposedLockService.class)
			.withBean(SkippingService.class)
			.withBean(OrderService.class)
			.withBean(ParcelService.class)
			.withBean("lockKeys", LockKeys.class)
			.withBean(PlainService.class));

	@Test
	void lockedMethodAndEveryFallbackCandidateCanBeCalled() throws NoSuchMethodException {
		assertInvocable(StockService.class.getMethod("decrement", long.class));
		assertInvocable(StockService.class.getDeclaredMethod("busy", long.class));
		assertInvocable(StockService.class.getDeclaredMethod("busy", long.class, LockNotAcquiredException.class));
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(StockService.class.getMethod("unlocked", long.class))).as("a method without a lock")
			.rejects(hints);
	}

	@Test
	void fallbackIsLookedUpOnTheBeanClassNotTheAnnotatedMethodsClass() throws NoSuchMethodException {
		assertInvocable(Report.class.getMethod("write"));
		assertInvocable(DailyReport.class.getDeclaredMethod("writeLater"));
	}

	@Test
	void methodLockedOnItsInterfaceCanBeCalled() throws NoSuchMethodException {
		assertInvocable(Locked.class.getMethod("work", String.class));
		assertInvocable(InterfaceLockedService.class.getMethod("work", String.class));
		assertInvocable(InterfaceLockedService.class.getDeclaredMethod("notNow", String.class));
	}

	@Test
	void methodLockedThroughAComposedAnnotationCanBeCalled() throws NoSuchMethodException {
		assertInvocable(ComposedLockService.class.getMethod("restock", long.class));
	}

	@Test
	void keyExpressionCanCallMethodsOfParametersAndBeans() throws NoSuchMethodException {
		assertInvocable(Order.class.getMethod("id"));
		assertInvocable(LockKeys.class.getMethod("prefix"));
	}

	@Test
	void everyExpressionOfSeveralKeysCanCallMethodsOfParameters() throws NoSuchMethodException {
		assertInvocable(ParcelService.class.getMethod("merge", Parcel.class, Order.class));
		assertInvocable(Parcel.class.getMethod("number"));
	}

	@Test
	void emptyValuesOfSkippedCallsCanBeCreated() {
		assertThat(RuntimeHintsPredicates.reflection().onType(String[].class)).as("array of a skipped call")
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(ArrayDeque.class)
			.withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
			.as("collection that Spring creates by its constructor")
			.accepts(hints);
	}

	@Test
	void beanWithoutLocksGetsNoHints() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(PlainService.class.getMethod("work")))
			.rejects(hints);
	}

	private static void assertInvocable(Method method) {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method))
			.as(method.getDeclaringClass().getSimpleName() + "." + method.getName())
			.accepts(hints);
	}

	static class StockService {

		@DistributedLock(key = "'lock:sku:' + #skuId", onUnavailable = LockFailureAction.FALLBACK,
				fallbackMethod = "busy")
		public int decrement(long skuId) {
			return 1;
		}

		public int unlocked(long skuId) {
			return 1;
		}

		@SuppressWarnings("unused")
		private int busy(long skuId) {
			return 0;
		}

		@SuppressWarnings("unused")
		private int busy(long skuId, LockNotAcquiredException failure) {
			return -1;
		}

	}

	abstract static class Report {

		@DistributedLock(key = "'lock:report'", fallbackMethod = "writeLater")
		public String write() {
			return "written";
		}

	}

	static class DailyReport extends Report {

		String writeLater() {
			return "later";
		}

	}

	interface Locked {

		@DistributedLock(key = "'lock:work:' + #item", fallbackMethod = "notNow")
		String work(String item);

	}

	static class InterfaceLockedService implements Locked {

		@Override
		public String work(String item) {
			return item;
		}

		String notNow(String item) {
			return "not now";
		}

	}

	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(waitTime = "0")
	@interface SkuLock {

		@AliasFor(annotation = DistributedLock.class, attribute = "key")
		String sku();

	}

	static class ComposedLockService {

		@SkuLock(sku = "'lock:sku:' + #skuId")
		public void restock(long skuId) {
		}

	}

	static class SkippingService {

		@DistributedLock(key = "'lock:names'", onNotAcquired = LockFailureAction.SKIP)
		public String[] names() {
			return new String[] { "a" };
		}

		@DistributedLock(key = "'lock:queue'", onNotAcquired = LockFailureAction.SKIP)
		public ArrayDeque<String> queue() {
			return new ArrayDeque<>(List.of("a"));
		}

	}

	record Order(long id) {

	}

	static class LockKeys {

		public String prefix() {
			return "lock:order:";
		}

	}

	static class OrderService {

		@DistributedLock(key = "@lockKeys.prefix() + #order.id()")
		public void ship(Order order) {
		}

	}

	record Parcel(long number) {

	}

	static class ParcelService {

		@DistributedLock(keys = { "'lock:parcel:' + #parcel.number()", "'lock:order:' + #order.id()" })
		public void merge(Parcel parcel, Order order) {
		}

	}

	static class PlainService {

		public void work() {
		}

	}

}
