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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import kotlin.coroutines.Continuation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockException;
import dev.distlock.LockFailureAction;
import dev.distlock.LockUnavailableException;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.StartupFailures;

/**
 * Every malformed {@link DistributedLock @DistributedLock} fails the application context
 * at startup with an {@link dev.distlock.InvalidLockDefinitionException} that names the
 * method and the problem: keys, durations, failure strategies, fallback methods, return
 * types, and methods that Spring's proxies cannot intercept.
 */
class StartupValidationTests {

	static Stream<Arguments> invalidBeans() {
		return Stream.of(
				Arguments.of(FallbackWithoutMethod.class, "work(String)",
						"onNotAcquired = FALLBACK and onUnavailable = THROW needs a fallbackMethod"),
				Arguments.of(UnavailableFallbackWithoutMethod.class, "work(String)",
						"onNotAcquired = THROW and onUnavailable = FALLBACK needs a fallbackMethod"),
				Arguments.of(MissingFallback.class, "work(String)",
						"fallbackMethod \"nowhere\" cannot be used: there is no method of that name on"),
				Arguments.of(MismatchedParameters.class, "work(String)",
						"no method of that name fits: it must take (String), optionally followed by a parameter that "
								+ "accepts LockNotAcquiredException; found fallback(String, String), fallback(long)"),
				Arguments.of(ExceptionParameterThatCannotTakeTheFailure.class, "work(String)",
						"found fallback(String, LockUnavailableException)"),
				Arguments.of(UnavailableExceptionParameterForBothFailures.class, "work(String)",
						"accepts LockNotAcquiredException and LockUnavailableException"),
				Arguments.of(IncompatibleReturnType.class, "work(String)",
						"fallback(String) returns java.lang.Integer, which is not assignable to java.lang.String"),
				Arguments.of(VoidFallbackOfAValue.class, "work(String)", "returns void, which is not assignable"),
				Arguments.of(AmbiguousFallback.class, "work(String)",
						"it is ambiguous, fallback(String), fallback(String, DistributedLockException) all fit"),
				Arguments.of(UnusedFallback.class, "work(String)",
						"fallbackMethod \"fallback\" is never called with onNotAcquired = SKIP and "
								+ "onUnavailable = THROW"),
				Arguments.of(MalformedMinHoldTime.class, "work(String)", "minHoldTime \"soon\" is not a duration"),
				Arguments.of(NegativeMinHoldTime.class, "work(String)",
						"minHoldTime \"-1s\" is negative. Set minHoldTime to zero or more."),
				Arguments.of(NegativeLeaseTime.class, "work(String)",
						"leaseTime \"-2\" is negative. Set leaseTime to at least 1ms, or \"-1\" to renew the lease "
								+ "while the method runs."),
				Arguments.of(PrivateMethod.class, "work(String)", "it is private, and Spring's proxies never "
						+ "intercept private methods, so it would run without its lock. Make it public and call it "
						+ "through the bean"),
				Arguments.of(StaticMethod.class, "work(String)",
						"it is static, and Spring's proxies only intercept "
								+ "calls to a bean's instance methods, so it would run without its lock."),
				Arguments.of(FinalMethod.class, "work(String)", "it is final, and the class-based proxy Spring Boot "
						+ "creates cannot override it, so it would run without its lock. Remove the final modifier"),
				Arguments.of(BrokenKey.class, "work(String)", "does not parse"),
				Arguments.of(MisspeltParameter.class, "work(String)", "uses #skuid"),
				Arguments.of(EmptyKey.class, "work(String)", "key is empty"),
				Arguments.of(MalformedDuration.class, "work(String)", "waitTime \"5 seconds\""),
				Arguments.of(ZeroLease.class, "work(String)",
						"leaseTime \"0s\" is shorter than 1ms. Set leaseTime to at least 1ms"),
				Arguments.of(UnresolvablePlaceholder.class, "work(String)", "no.such.property"),
				Arguments.of(FutureResult.class, "work(String)",
						"it returns java.util.concurrent.Future, whose work "
								+ "completes after the method returns, so the lock would be released too early"),
				Arguments.of(PublisherResult.class, "work(String)", "it returns org.reactivestreams.Publisher"),
				Arguments.of(MonoWithPlainFallback.class, "work(String)",
						"fallback(String) returns java.lang.String, which is not assignable to "
								+ "reactor.core.publisher.Mono<java.lang.String>"),
				Arguments.of(SuspendFunction.class, "work(String, Continuation)", "it is a Kotlin suspend function "
						+ "(its last parameter is a Continuation), whose body runs after the call returns unless Spring "
						+ "invokes it as a coroutine, so the lock would be released before the work. Add "
						+ "org.jetbrains.kotlinx:kotlinx-coroutines-reactor"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidBeans")
	void invalidDefinitionFailsStartup(Class<?> beanClass, String method, String problem) {
		LockTestContexts.withSharedRedis()
			.withBean(beanClass)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context, beanClass.getName() + "." + method,
					problem));
	}

	static class PrivateMethod {

		public void callWork(String id) {
			work(id);
		}

		@DistributedLock(key = "#id")
		private void work(String id) {
		}

	}

	static class StaticMethod {

		@DistributedLock(key = "#id")
		public static void work(String id) {
		}

	}

	static class FinalMethod {

		@DistributedLock(key = "#id")
		public final void work(String id) {
		}

	}

	/** What kotlinc compiles {@code suspend fun work(id: String): String} to. */
	static class SuspendFunction {

		@DistributedLock(key = "#id")
		public Object work(String id, Continuation<? super String> continuation) {
			return id;
		}

	}

	static class FallbackWithoutMethod {

		@DistributedLock(key = "#id", onNotAcquired = LockFailureAction.FALLBACK)
		public void work(String id) {
		}

	}

	static class UnavailableFallbackWithoutMethod {

		@DistributedLock(key = "#id", onUnavailable = LockFailureAction.FALLBACK)
		public void work(String id) {
		}

	}

	static class MissingFallback {

		@DistributedLock(key = "#id", fallbackMethod = "nowhere")
		public void work(String id) {
		}

	}

	static class MismatchedParameters {

		@DistributedLock(key = "#id", fallbackMethod = "fallback")
		public void work(String id) {
		}

		void fallback(long id) {
		}

		void fallback(String id, String extra) {
		}

	}

	static class ExceptionParameterThatCannotTakeTheFailure {

		@DistributedLock(key = "#id", fallbackMethod = "fallback")
		public void work(String id) {
		}

		void fallback(String id, LockUnavailableException failure) {
		}

	}

	static class UnavailableExceptionParameterForBothFailures {

		@DistributedLock(key = "#id", fallbackMethod = "fallback", onUnavailable = LockFailureAction.FALLBACK)
		public void work(String id) {
		}

		void fallback(String id, LockUnavailableException failure) {
		}

	}

	static class IncompatibleReturnType {

		@DistributedLock(key = "#id", fallbackMethod = "fallback")
		public String work(String id) {
			return id;
		}

		Integer fallback(String id) {
			return 0;
		}

	}

	static class VoidFallbackOfAValue {

		@DistributedLock(key = "#id", fallbackMethod = "fallback")
		public String work(String id) {
			return id;
		}

		void fallback(String id) {
		}

	}

	static class AmbiguousFallback {

		@DistributedLock(key = "#id", fallbackMethod = "fallback")
		public void work(String id) {
		}

		void fallback(String id) {
		}

		void fallback(String id, DistributedLockException failure) {
		}

	}

	static class UnusedFallback {

		@DistributedLock(key = "#id", onNotAcquired = LockFailureAction.SKIP, fallbackMethod = "fallback")
		public void work(String id) {
		}

		void fallback(String id) {
		}

	}

	static class MalformedMinHoldTime {

		@DistributedLock(key = "#id", minHoldTime = "soon")
		public void work(String id) {
		}

	}

	static class NegativeMinHoldTime {

		@DistributedLock(key = "#id", minHoldTime = "-1s")
		public void work(String id) {
		}

	}

	static class NegativeLeaseTime {

		@DistributedLock(key = "#id", leaseTime = "-2")
		public void work(String id) {
		}

	}

	static class BrokenKey {

		@DistributedLock("'sku:' +")
		public void work(String id) {
		}

	}

	static class MisspeltParameter {

		@DistributedLock("'sku:' + #skuid")
		public void work(String skuId) {
		}

	}

	static class EmptyKey {

		@DistributedLock(waitTime = "1s")
		public void work(String id) {
		}

	}

	static class MalformedDuration {

		@DistributedLock(key = "#id", waitTime = "5 seconds")
		public void work(String id) {
		}

	}

	static class ZeroLease {

		@DistributedLock(key = "#id", leaseTime = "0s")
		public void work(String id) {
		}

	}

	static class UnresolvablePlaceholder {

		@DistributedLock(key = "'${no.such.property}:' + #id")
		public void work(String id) {
		}

	}

	static class FutureResult {

		@DistributedLock(key = "#id")
		public Future<String> work(String id) {
			return CompletableFuture.completedFuture(id);
		}

	}

	static class PublisherResult {

		@DistributedLock(key = "#id")
		public Publisher<String> work(String id) {
			return Mono.just(id);
		}

	}

	static class MonoWithPlainFallback {

		@DistributedLock(key = "#id", fallbackMethod = "fallback")
		public Mono<String> work(String id) {
			return Mono.just(id);
		}

		String fallback(String id) {
			return id;
		}

	}

}
