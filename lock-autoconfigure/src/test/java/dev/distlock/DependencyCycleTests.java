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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.distlock.ClassDependencies.packageOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dependencies point one way: {@code jdeps} on the built classes
 * ({@link ClassDependencies}) finds no cycle between packages, and none between the
 * classes of {@code dev.distlock.redis} and its sub-packages (apart from reading a
 * builder's settings while building what it builds); and no chain of classes in the Redis
 * client, each using the next, is longer than ten.
 */
class DependencyCycleTests {

	private static final int LONGEST_REDIS_CHAIN = 10;

	/** Class to the classes it uses, nested classes counted as their outer class. */
	private static Map<String, Set<String>> classes;

	@BeforeAll
	static void readDependencies() {
		classes = ClassDependencies.read();
	}

	@Test
	void noCycleBetweenPackages() {
		Map<String, Set<String>> packages = new TreeMap<>();
		classes.forEach((from, uses) -> uses.forEach((to) -> {
			if (!packageOf(from).equals(packageOf(to))) {
				packages.computeIfAbsent(packageOf(from), (key) -> new TreeSet<>()).add(packageOf(to));
			}
		}));
		assertThat(cycles(packages)).as("package cycles").isEmpty();
	}

	@Test
	void noCycleBetweenTheClassesOfTheRedisClient() {
		assertThat(cycles(redisClasses())).as("class cycles in dev.distlock.redis").isEmpty();
	}

	/**
	 * A reader who follows a call from the client down its dependencies passes through at
	 * most {@value #LONGEST_REDIS_CHAIN} classes of {@code dev.distlock.redis} and its
	 * sub-packages, each using the next.
	 */
	@Test
	void noChainOfClassesInTheRedisClientIsLongerThanTen() {
		Map<String, Set<String>> redis = redisClasses();
		Map<String, List<String>> longest = new HashMap<>();
		List<String> chain = redis.keySet()
			.stream()
			.map((type) -> longestChain(type, redis, longest))
			.max(Comparator.comparingInt(List::size))
			.orElseThrow();
		assertThat(chain).as("longest chain of classes in dev.distlock.redis, each using the next")
			.hasSizeLessThanOrEqualTo(LONGEST_REDIS_CHAIN);
	}

	/** The classes of the Redis client and those of its classes each uses. */
	private static Map<String, Set<String>> redisClasses() {
		Map<String, Set<String>> redis = new TreeMap<>();
		classes.forEach((from, uses) -> uses.forEach((to) -> {
			if (from.startsWith("dev.distlock.redis.") && to.startsWith("dev.distlock.redis.")
					&& !to.endsWith("Builder")) {
				redis.computeIfAbsent(from, (key) -> new TreeSet<>()).add(to);
			}
		}));
		return redis;
	}

	/** The longest chain from a class down a graph without cycles, memoized. */
	private static List<String> longestChain(String type, Map<String, Set<String>> graph,
			Map<String, List<String>> longest) {
		List<String> known = longest.get(type);
		if (known != null) {
			return known;
		}
		List<String> below = List.of();
		for (String used : graph.getOrDefault(type, Set.of())) {
			List<String> chain = longestChain(used, graph, longest);
			if (chain.size() > below.size()) {
				below = chain;
			}
		}
		List<String> chain = new ArrayList<>(below.size() + 1);
		chain.add(type);
		chain.addAll(below);
		longest.put(type, chain);
		return chain;
	}

	/** Finds the strongly connected components of more than one node (Tarjan). */
	private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
		return new Components(graph).cycles;
	}

	private static final class Components {

		private final Map<String, Set<String>> graph;

		private final Map<String, Integer> index = new HashMap<>();

		private final Map<String, Integer> low = new HashMap<>();

		private final List<String> stack = new ArrayList<>();

		private final List<Set<String>> cycles = new ArrayList<>();

		Components(Map<String, Set<String>> graph) {
			this.graph = graph;
			graph.keySet().forEach((node) -> {
				if (!this.index.containsKey(node)) {
					visit(node);
				}
			});
		}

		private void visit(String node) {
			this.index.put(node, this.index.size());
			this.low.put(node, this.index.get(node));
			this.stack.add(node);
			for (String next : this.graph.getOrDefault(node, Set.of())) {
				if (!this.index.containsKey(next)) {
					visit(next);
					this.low.put(node, Math.min(this.low.get(node), this.low.get(next)));
				}
				else if (this.stack.contains(next)) {
					this.low.put(node, Math.min(this.low.get(node), this.index.get(next)));
				}
			}
			if (this.low.get(node).equals(this.index.get(node))) {
				Set<String> component = new TreeSet<>();
				String member;
				do {
					member = this.stack.remove(this.stack.size() - 1);
					component.add(member);
				}
				while (!member.equals(node));
				if (component.size() > 1) {
					this.cycles.add(component);
				}
			}
		}

	}

}
