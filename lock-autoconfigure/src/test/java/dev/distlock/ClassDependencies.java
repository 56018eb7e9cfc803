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

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classes of {@code dev.distlock} and the classes of {@code dev.distlock} each uses,
 * as {@code jdeps} reads them from the built classes, for the tests of the architecture
 * ({@link DependencyCycleTests}, {@link LayerTests}). Nested classes count as their outer
 * class. Read once per test JVM.
 */
final class ClassDependencies {

	private static final Path CLASSES = Path.of("target", "classes");

	private static @Nullable Map<String, Set<String>> classes;

	private ClassDependencies() {
	}

	/**
	 * Returns each class with the other classes of {@code dev.distlock} it uses.
	 * @return class to the classes it uses, sorted
	 */
	static synchronized Map<String, Set<String>> read() {
		if (classes == null) {
			classes = Collections.unmodifiableMap(readWithJdeps());
		}
		return classes;
	}

	/**
	 * Returns the package of a class.
	 * @param className the class
	 * @return its package
	 */
	static String packageOf(String className) {
		return className.substring(0, className.lastIndexOf('.'));
	}

	private static Map<String, Set<String>> readWithJdeps() {
		assertThat(Files.isDirectory(CLASSES.resolve("dev/distlock"))).as("compiled classes in " + CLASSES).isTrue();
		ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
		StringWriter out = new StringWriter();
		int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
				CLASSES.toString());
		assertThat(exit).as(out::toString).isZero();
		Map<String, Set<String>> read = new TreeMap<>();
		for (String line : out.toString().split("\\R")) {
			String[] parts = line.trim().split("\\s+");
			if (parts.length >= 3 && parts[1].equals("->") && parts[0].startsWith("dev.distlock.")
					&& parts[2].startsWith("dev.distlock.")) {
				String from = outer(parts[0]);
				String to = outer(parts[2]);
				if (!from.equals(to)) {
					read.computeIfAbsent(from, (key) -> new TreeSet<>()).add(to);
				}
			}
		}
		assertThat(read).as("dependencies read from jdeps").containsKey("dev.distlock.redis.RedisLockClient");
		return read;
	}

	private static String outer(String className) {
		int nested = className.indexOf('$');
		return (nested >= 0) ? className.substring(0, nested) : className;
	}

}
