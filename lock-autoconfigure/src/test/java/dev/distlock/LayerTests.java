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

package dev.distlock;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Layers, checked on the classes {@code jdeps} reads ({@link ClassDependencies}) as
 * Spring Boot checks its architecture in the build: the in-memory store does not use the
 * Redis client; outside the Redis stores only the public API of the Redis client is used;
 * the public waiting API does not use the release messages, and the monitor nothing else
 * of the Redis client; RedLock shares only the protocol with Redis; the Redis client is
 * observed through one type.
 */
class LayerTests {

	private static final String REDIS = "dev.distlock.redis";

	/**
	 * The packages of the Redis client whose public classes are its public API; its other
	 * sub-packages ({@code protocol}, {@code lease}, {@code cohort}, {@code messages})
	 * are internal.
	 */
	private static final Set<String> PUBLIC_REDIS_PACKAGES = Set.of(REDIS, REDIS + ".monitor", REDIS + ".wait");

	private static Map<String, Set<String>> classes;

	@BeforeAll
	static void readDependencies() {
		classes = ClassDependencies.read();
	}

	@Test
	void theInMemoryStoreDoesNotUseRedis() {
		assertThat(uses(in("dev.distlock.memory"), in(REDIS))).as("uses of %s.. in dev.distlock.memory", REDIS)
			.isEmpty();
	}

	@Test
	void outsideTheRedisStoresOnlyThePublicApiOfRedisIsUsed() {
		Predicate<String> redisStores = in(REDIS).or(in("dev.distlock.redlock"));
		Predicate<String> publicApi = (type) -> PUBLIC_REDIS_PACKAGES.contains(ClassDependencies.packageOf(type))
				&& isPublic(type);
		assertThat(uses(redisStores.negate(), in(REDIS).and(publicApi.negate())))
			.as("uses of what is not the public API of %s (public classes of %s)", REDIS, PUBLIC_REDIS_PACKAGES)
			.isEmpty();
	}

	@Test
	void thePublicWaitingApiDoesNotUseTheReleaseMessages() {
		assertThat(uses(in(REDIS + ".wait"), in(REDIS + ".messages")))
			.as("uses of %s.messages in %s.wait", REDIS, REDIS)
			.isEmpty();
	}

	@Test
	void theMonitorUsesNothingElseOfTheRedisClient() {
		assertThat(uses(in(REDIS + ".monitor"), in(REDIS).and(in(REDIS + ".monitor").negate())))
			.as("uses of %s.. in %s.monitor", REDIS, REDIS)
			.isEmpty();
	}

	@Test
	void redLockSharesOnlyTheProtocolWithRedis() {
		assertThat(uses(in("dev.distlock.redlock"), in(REDIS).and(in(REDIS + ".protocol").negate())))
			.as("uses of %s.. other than %s.protocol in dev.distlock.redlock", REDIS, REDIS)
			.isEmpty();
	}

	@Test
	void theRedisClientIsObservedThroughOneType() {
		String observer = "dev.distlock.observation.LockObservationDocumentation";
		assertThat(uses(in(REDIS), in("dev.distlock.observation").and((type) -> !type.equals(observer))))
			.as("uses of dev.distlock.observation other than %s in %s..", observer, REDIS)
			.isEmpty();
	}

	/**
	 * Returns, for each class that matches {@code from} and uses a class that matches
	 * {@code to}, which class uses which.
	 */
	private static List<String> uses(Predicate<String> from, Predicate<String> to) {
		List<String> uses = new ArrayList<>();
		classes.forEach((type, used) -> {
			if (from.test(type)) {
				used.stream().filter(to).forEach((target) -> uses.add(type + " uses " + target));
			}
		});
		return uses;
	}

	/** Matches the classes of a package and its sub-packages. */
	private static Predicate<String> in(String packageName) {
		return (type) -> type.startsWith(packageName + ".");
	}

	private static boolean isPublic(String type) {
		try {
			return Modifier.isPublic(Class.forName(type, false, LayerTests.class.getClassLoader()).getModifiers());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException("jdeps read " + type + ", which does not load", ex);
		}
	}

}
