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
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.ReflectionUtils;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockFailureAction;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.aop.LockDefinition.LeaseMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How {@link LockDefinitionSource} reads lease, minimum hold and failure attributes into
 * {@link LockDefinition} and the {@link LockOptions} each call acquires with.
 */
class LockDefinitionSourceTests {

	private static final LockOptions FIXED_DEFAULTS = new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30));

	private static final LockOptions RENEWING_DEFAULTS = LockOptions.renewing(Duration.ofSeconds(5));

	private final MockEnvironment environment = new MockEnvironment().withProperty("app.hold", "45s")
		.withProperty("app.lease", DistributedLock.AUTO_RENEW);

	private final LockDefinitionSource source = new LockDefinitionSource(new LockKeyEvaluator(null), this.environment);

	@Test
	void autoRenewConstantRenewsEvenWhenTheDefaultLeaseIsFixed() {
		LockDefinition definition = definition("autoRenew");
		assertThat(definition.leaseMode()).isEqualTo(LeaseMode.AUTO_RENEW);
		assertThat(definition.options(FIXED_DEFAULTS).isAutoRenewing()).isTrue();
		assertThat(definition.options(FIXED_DEFAULTS).waitTime()).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void placeholderCanResolveToAutoRenew() {
		assertThat(definition("autoRenewFromPlaceholder").options(FIXED_DEFAULTS).leaseTime()).isNull();
	}

	@Test
	void emptyLeaseTimeKeepsTheDefaultWhetherFixedOrRenewing() {
		LockDefinition definition = definition("defaults");
		assertThat(definition.leaseMode()).isEqualTo(LeaseMode.DEFAULT);
		assertThat(definition.options(FIXED_DEFAULTS)).isEqualTo(FIXED_DEFAULTS);
		assertThat(definition.options(RENEWING_DEFAULTS)).isEqualTo(RENEWING_DEFAULTS);
	}

	@Test
	void fixedLeaseTimeReplacesARenewingDefault() {
		LockOptions options = definition("fixed").options(RENEWING_DEFAULTS);
		assertThat(options.leaseTime()).isEqualTo(Duration.ofSeconds(7));
		assertThat(options.waitTime()).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void minHoldTimeIsParsedWithPlaceholders() {
		assertThat(definition("minHold").options(RENEWING_DEFAULTS).minHoldTime()).isEqualTo(Duration.ofMinutes(1));
		assertThat(definition("minHoldFromPlaceholder").options(FIXED_DEFAULTS).minHoldTime())
			.isEqualTo(Duration.ofSeconds(45));
		assertThat(definition("defaults").options(FIXED_DEFAULTS).minHoldTime()).isZero();
	}

	@Test
	void emptyMinHoldTimeKeepsTheMinimumHoldOfTheName() {
		LockOptions named = RENEWING_DEFAULTS.withMinHoldTime(Duration.ofSeconds(3)).withName("stock");
		assertThat(definition("defaults").minHoldTime()).isNull();
		assertThat(definition("defaults").options(named)).isEqualTo(named);
		assertThat(definition("minHold").options(named).minHoldTime()).isEqualTo(Duration.ofMinutes(1));
	}

	@Test
	void malformedMinHoldTimeIsRejected() {
		assertThatExceptionOfType(InvalidLockDefinitionException.class).isThrownBy(() -> definition("malformedHold"))
			.withMessageContaining("Annotated.malformedHold()")
			.withMessageContaining("minHoldTime \"a while\" is not a duration");
	}

	@Test
	void failureActionsDefaultToThrow() {
		LockFailurePolicy policy = definition("defaults").failurePolicy();
		assertThat(policy).isEqualTo(LockFailurePolicy.THROW);
		assertThat(policy.actionFor(notAcquired())).isEqualTo(LockFailureAction.THROW);
		assertThat(policy.actionFor(unavailable())).isEqualTo(LockFailureAction.THROW);
	}

	@Test
	void skipWhenNotAcquiredStillThrowsWhenUnavailable() {
		LockFailurePolicy policy = definition("skip").failurePolicy();
		assertThat(policy.actionFor(notAcquired())).isEqualTo(LockFailureAction.SKIP);
		assertThat(policy.actionFor(unavailable())).isEqualTo(LockFailureAction.THROW);
	}

	@Test
	void fallbackMethodImpliesFallbackWhenNotAcquiredOnly() {
		LockFailurePolicy policy = definition("withFallback").failurePolicy();
		assertThat(policy.actionFor(notAcquired())).isEqualTo(LockFailureAction.FALLBACK);
		assertThat(policy.actionFor(unavailable())).isEqualTo(LockFailureAction.THROW);
		assertThat(policy.fallback()).isNotNull();
		assertThat(policy.fallback().getMethod().getName()).isEqualTo("fallback");
	}

	@Test
	void skipWhenBusyAndFallBackWhenUnavailable() {
		LockFailurePolicy policy = definition("skipOrFallback").failurePolicy();
		assertThat(policy.actionFor(notAcquired())).isEqualTo(LockFailureAction.SKIP);
		assertThat(policy.actionFor(unavailable())).isEqualTo(LockFailureAction.FALLBACK);
	}

	private LockDefinition definition(String methodName) {
		Method method = ReflectionUtils.findMethod(Annotated.class, methodName);
		LockDefinition definition = this.source.find(method, Annotated.class);
		assertThat(definition).isNotNull();
		return definition;
	}

	private static LockNotAcquiredException notAcquired() {
		return new LockNotAcquiredException("k", Duration.ZERO, Duration.ZERO);
	}

	private static LockUnavailableException unavailable() {
		return new LockUnavailableException("k", "acquire", new IllegalStateException("down"));
	}

	static class Annotated {

		@DistributedLock(key = "'k'", leaseTime = DistributedLock.AUTO_RENEW)
		public void autoRenew() {
		}

		@DistributedLock(key = "'k'", leaseTime = "${app.lease}")
		public void autoRenewFromPlaceholder() {
		}

		@DistributedLock(key = "'k'")
		public void defaults() {
		}

		@DistributedLock(key = "'k'", waitTime = "250ms", leaseTime = "7s")
		public void fixed() {
		}

		@DistributedLock(key = "'k'", minHoldTime = "1m")
		public void minHold() {
		}

		@DistributedLock(key = "'k'", minHoldTime = "${app.hold}")
		public void minHoldFromPlaceholder() {
		}

		@DistributedLock(key = "'k'", minHoldTime = "a while")
		public void malformedHold() {
		}

		@DistributedLock(key = "'k'", onNotAcquired = LockFailureAction.SKIP)
		public String skip() {
			return "";
		}

		@DistributedLock(key = "'k'", fallbackMethod = "fallback")
		public String withFallback() {
			return "";
		}

		@DistributedLock(key = "'k'", onNotAcquired = LockFailureAction.SKIP,
				onUnavailable = LockFailureAction.FALLBACK, fallbackMethod = "fallback")
		public String skipOrFallback() {
			return "";
		}

		String fallback() {
			return "fallback";
		}

	}

}
