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

package dev.distlock.benchmarks;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.autoconfigure.DistributedLockProperties;

/**
 * Builds distlock's two contenders the way an application gets them: a Spring Boot
 * context with Boot's Redis and AOP auto-configuration and distlock's, the
 * auto-configured {@link LockClient} bean, and a bean with a {@code @DistributedLock}
 * method.
 * <p>
 * This is the one place that decides how distlock is configured for the benchmarks: the
 * two flags below, whose defaults are the one line to change when a mode becomes the one
 * to publish, and which the environment variables {@code DISTLOCK_BENCH_AUTO_RENEWAL} and
 * {@code DISTLOCK_BENCH_PUB_SUB} override for one run (worker JVMs inherit them). The
 * mode that actually ran is described from the build on the class path, see
 * {@link #describeMode()}.
 */
final class DistlockFactory {

	static final String CLIENT_NAME = "distlock client";

	static final String ANNOTATED_NAME = "distlock @DistributedLock";

	/**
	 * Whether leases are renewed automatically ({@code distlock.lease-time} unset), where
	 * the build has renewal; else a fixed lease.
	 */
	static final boolean AUTO_RENEWAL = flag("DISTLOCK_BENCH_AUTO_RENEWAL", true);

	/**
	 * Whether waiters are woken by pub/sub ({@code distlock.waiting.pub-sub}) where the
	 * build has it.
	 */
	static final boolean PUB_SUB = flag("DISTLOCK_BENCH_PUB_SUB", true);

	/** The lease of short critical sections while {@link #AUTO_RENEWAL} is off. */
	private static final Duration FIXED_LEASE = Duration.ofSeconds(30);

	/** The lease of locks held for minutes while {@link #AUTO_RENEWAL} is off. */
	private static final Duration LONG_FIXED_LEASE = Duration.ofMinutes(10);

	/** Long enough never to give up in a benchmark; the other contenders wait forever. */
	private static final Duration WAIT = Duration.ofSeconds(60);

	private DistlockFactory() {
	}

	static List<String> properties(RedisTarget target) {
		List<String> properties = new ArrayList<>();
		properties.add(target.springProperty());
		properties.add("distlock.wait-time=" + WAIT.toSeconds() + "s");
		if (!AUTO_RENEWAL || !hasMethod(LockOptions.class, "isAutoRenewing")) {
			properties.add("distlock.lease-time=" + FIXED_LEASE.toSeconds() + "s");
		}
		// Ignored by builds that have no such property.
		properties.add("distlock.waiting.pub-sub=" + PUB_SUB);
		String localPasses = System.getenv("DISTLOCK_BENCH_LOCAL_HAND_OFFS");
		if (localPasses != null && !localPasses.isBlank()) {
			properties.add("distlock.waiting.max-local-passes=" + localPasses.trim());
			// Its name before 0.1.0, for BENCH_DISTLOCK_REF builds of earlier commits.
			properties.add("distlock.waiting.max-local-hand-offs=" + localPasses.trim());
		}
		return properties;
	}

	/**
	 * Describes the mode distlock ran in, from the flags and from what the build on the
	 * class path supports.
	 * @return the description
	 */
	static String describeMode() {
		boolean buildHasPubSub = hasMethod(DistributedLockProperties.class, "getWaiting");
		boolean buildHasRenewal = hasMethod(LockOptions.class, "isAutoRenewing");
		// The class lives in redis.messages; earlier builds (BENCH_DISTLOCK_REF) have it
		// in redis.wait (0.1.0) or at the top.
		boolean buildHandsOver = LockClient.class.getResource("/dev/distlock/redis/messages/QueuedWait.class") != null
				|| LockClient.class.getResource("/dev/distlock/redis/wait/QueuedWait.class") != null
				|| LockClient.class.getResource("/dev/distlock/redis/QueuedWait.class") != null;
		String pubSub = buildHandsOver ? "queued in Redis, handed over by the release (pub/sub message)"
				: "pub/sub wake-up";
		String waiting = (PUB_SUB && buildHasPubSub) ? pubSub + ", backoff as backstop"
				: "jittered backoff 1→50 ms" + (buildHasPubSub ? " (pub/sub off)" : " (build has no pub/sub)");
		String lease = (AUTO_RENEWAL && buildHasRenewal) ? "auto-renewed lease (distlock.lease-time unset)"
				: "fixed " + FIXED_LEASE.toSeconds() + " s lease"
						+ (buildHasRenewal ? " (renewal off)" : " (build has no renewal)");
		return waiting + "; " + lease;
	}

	static boolean hasMethod(Class<?> type, String name) {
		for (Method method : type.getMethods()) {
			if (method.getName().equals(name)) {
				return true;
			}
		}
		return false;
	}

	private static boolean flag(String variable, boolean defaultValue) {
		String value = System.getenv(variable);
		return (value != null && !value.isBlank()) ? Boolean.parseBoolean(value.trim()) : defaultValue;
	}

	static SpringApplicationBuilder builder(RedisTarget target) {
		return new SpringApplicationBuilder(BenchApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(properties(target).toArray(String[]::new));
	}

	static ExplicitContender client(ConfigurableApplicationContext context, String name) {
		LockClient client = context.getBean(LockClient.class);
		boolean renewing = AUTO_RENEWAL && hasMethod(LockOptions.class, "isAutoRenewing");
		LockOptions longHeld = renewing ? client.defaultOptions()
				: client.defaultOptions().withLeaseTime(LONG_FIXED_LEASE);
		String longLease = renewing ? "auto-renewed: 30 s lease (distlock.renewal.lease), renewed every 10 s"
				: "no auto-renewal (long fixed lease, " + LONG_FIXED_LEASE.toMinutes() + " min)";
		return new ExplicitContender() {

			@Override
			public String name() {
				return name;
			}

			@Override
			public Held acquire(String key) {
				LockHandle handle = client.lock(key);
				return handle::release;
			}

			@Override
			public Held acquireLongHeld(String key) {
				LockHandle handle = client.lock(key, longHeld);
				return handle::release;
			}

			@Override
			public String longLease() {
				return longLease;
			}

		};
	}

	static Contender annotated(ConfigurableApplicationContext context) {
		LockedWork work = context.getBean(LockedWork.class);
		return new Contender() {

			@Override
			public String name() {
				return ANNOTATED_NAME;
			}

			@Override
			public void runLocked(String key, Runnable section) {
				work.run(key, section);
			}

		};
	}

	/**
	 * The benchmark's application: auto-configuration only, no component scanning.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
			DistributedLockAutoConfiguration.class })
	static class BenchApplication {

		@Bean
		LockedWork lockedWork() {
			return new LockedWork();
		}

	}

}
