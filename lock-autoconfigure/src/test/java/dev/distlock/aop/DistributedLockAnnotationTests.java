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
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AliasFor;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How {@link DistributedLock @DistributedLock} methods are locked: each method reports
 * the remaining lease (in ms) of the key it expects to be held while it runs.
 */
class DistributedLockAnnotationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withPropertyValues("app.namespace=tenant-7", "app.wait=250ms")
		.withUserConfiguration(Config.class);

	@Test
	void parameterIsAvailableByName() {
		this.runner.run((context) -> assertThat(context.getBean(Locked.class).byName(41)).isPositive());
	}

	@Test
	void parameterIsAvailableByIndex() {
		this.runner.run((context) -> {
			assertThat(context.getBean(Locked.class).byP0("x")).isPositive();
			assertThat(context.getBean(Locked.class).byA0("y")).isPositive();
		});
	}

	@Test
	void beansAndRootObjectCanBeReferenced() {
		this.runner.run((context) -> {
			assertThat(context.getBean(Locked.class).byBean("z")).isPositive();
			assertThat(context.getBean(Locked.class).byRoot()).isPositive();
		});
	}

	@Test
	void placeholdersAreResolvedAndAnnotationDurationsApply() {
		this.runner.run((context) -> assertThat(context.getBean(Locked.class).byPlaceholder("q"))
			.as("remaining lease of a 7s lease")
			.isBetween(1L, 7000L));
	}

	@Test
	void composedAnnotationOverridesAttributesWithAliasFor() {
		this.runner.run((context) -> assertThat(context.getBean(Locked.class).composed(3))
			.as("remaining lease of the meta-annotation's 9s lease")
			.isBetween(7001L, 9000L));
	}

	@Test
	void annotationOnAnInterfaceMethodApplies() {
		this.runner.run((context) -> assertThat(context.getBean(LockedContract.class).fromInterface("i")).isPositive());
	}

	@Test
	void nullKeyFailsTheCallBeforeTheMethodRuns() {
		this.runner.run((context) -> {
			Locked locked = context.getBean(Locked.class);
			assertThatExceptionOfType(LockKeyExpressionException.class).isThrownBy(() -> locked.nullable(null))
				.withMessageContaining("Locked.nullable(String)")
				.withMessageContaining("#name")
				.withMessageContaining("yielded null");
			assertThatExceptionOfType(LockKeyExpressionException.class).isThrownBy(() -> locked.nullable(" "))
				.withMessageContaining("blank");
			assertThat(locked.invocations()).isZero();
		});
	}

	@Test
	void keyExpressionThatThrowsFailsTheCallNamingTheMethodAndTheExpression() {
		this.runner.run((context) -> {
			Locked locked = context.getBean(Locked.class);
			assertThatExceptionOfType(LockKeyExpressionException.class).isThrownBy(() -> locked.suffix("ab"))
				.withMessageStartingWith("Lock key expression \"'lock:' + #code.substring(5)\" on ")
				.withMessageContaining("Locked.suffix(String) threw java.lang.StringIndexOutOfBoundsException")
				.withCauseInstanceOf(StringIndexOutOfBoundsException.class);
			assertThat(locked.invocations()).isZero();
		});
	}

	@Test
	void argumentQuotedByTheExceptionOfAKeyExpressionCannotForgeTheMessage() {
		this.runner.run((context) -> {
			Locked locked = context.getBean(Locked.class);
			assertThatExceptionOfType(LockKeyExpressionException.class)
				.isThrownBy(() -> locked.numbered("1\nWARN forged" + "x".repeat(300)))
				.withMessageContaining("threw java.lang.NumberFormatException 'For input string: \"1\\nWARN forged")
				.withMessageContaining("... (")
				.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("\n").hasSizeLessThan(700));
			assertThat(locked.invocations()).isZero();
		});
	}

	@Test
	void exceptionOfTheMethodPropagatesUnchangedAndTheLockIsReleased() {
		this.runner.run((context) -> {
			Locked locked = context.getBean(Locked.class);
			Exception failure = new Exception("checked failure");
			assertThatThrownBy(() -> locked.failing("f", failure)).isSameAs(failure);
			assertThat(failure.getSuppressed()).isEmpty();
			assertThat(context.getBean(StringRedisTemplate.class).hasKey("fail:f")).isFalse();
		});
	}

	@Test
	void unannotatedMethodsOfTheBeanRunWithoutALock() {
		this.runner.run((context) -> assertThat(context.getBean(Locked.class).plain()).isEqualTo("plain"));
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Locked locked(StringRedisTemplate redis) {
			return new Locked(redis);
		}

		@Bean
		LockedContract lockedContract(StringRedisTemplate redis) {
			return new LockedContractImpl(redis);
		}

		@Bean
		KeyNames keyNames() {
			return new KeyNames();
		}

	}

	static class KeyNames {

		public String prefix() {
			return "bean-prefix:";
		}

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(waitTime = "1s", leaseTime = "9s")
	@interface SkuLock {

		@AliasFor(annotation = DistributedLock.class, attribute = "key")
		String sku();

	}

	interface LockedContract {

		@DistributedLock(key = "'iface:' + #p0")
		long fromInterface(String id);

	}

	static class LockedContractImpl implements LockedContract {

		private final StringRedisTemplate redis;

		LockedContractImpl(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@Override
		public long fromInterface(String id) {
			return this.redis.getExpire("iface:" + id, java.util.concurrent.TimeUnit.MILLISECONDS);
		}

	}

	static class Locked {

		private final AtomicInteger invocations = new AtomicInteger();

		public int invocations() {
			return this.invocations.get();
		}

		private final StringRedisTemplate redis;

		Locked(StringRedisTemplate redis) {
			this.redis = redis;
		}

		private long leaseOf(String key) {
			this.invocations.incrementAndGet();
			return this.redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);
		}

		@DistributedLock(key = "'sku:' + #skuId")
		public long byName(long skuId) {
			return leaseOf("sku:" + skuId);
		}

		@DistributedLock(key = "'p:' + #p0")
		public long byP0(String id) {
			return leaseOf("p:" + id);
		}

		@DistributedLock(key = "'a:' + #a0")
		public long byA0(String id) {
			return leaseOf("a:" + id);
		}

		@DistributedLock("@keyNames.prefix() + #id")
		public long byBean(String id) {
			return leaseOf("bean-prefix:" + id);
		}

		@DistributedLock("'root:' + #root.methodName")
		public long byRoot() {
			return leaseOf("root:byRoot");
		}

		@DistributedLock(key = "'${app.namespace}:' + #id", waitTime = "${app.wait}", leaseTime = "7s")
		public long byPlaceholder(String id) {
			return leaseOf("tenant-7:" + id);
		}

		@SkuLock(sku = "'composed:' + #skuId")
		public long composed(long skuId) {
			return leaseOf("composed:" + skuId);
		}

		@DistributedLock(key = "#name")
		public long nullable(String name) {
			return leaseOf(String.valueOf(name));
		}

		@DistributedLock(key = "'n:' + T(Long).parseLong(#s)")
		public long numbered(String s) {
			return this.invocations.incrementAndGet();
		}

		@DistributedLock(key = "'lock:' + #code.substring(5)")
		public long suffix(String code) {
			return leaseOf(code);
		}

		@DistributedLock(key = "'fail:' + #id")
		public void failing(String id, Exception failure) throws Exception {
			throw failure;
		}

		public String plain() {
			return "plain";
		}

	}

}
