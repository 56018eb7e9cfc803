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

package dev.distlock.test.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Locates a {@code redis-server} executable: the one on {@code PATH} if there is one,
 * else the binary for the current platform shipped at the root of the
 * {@code com.github.codemonstur:embedded-redis} jar, extracted once per JVM to an
 * executable temporary file.
 */
final class RedisServerBinary {

	/** Binaries in embedded-redis 1.4.3, keyed by {@code os-arch}. */
	private static final Map<String, String> EMBEDDED = Map.of("linux-amd64", "redis-server-6.2.6-v5-linux-amd64",
			"linux-arm64", "redis-server-6.2.7-linux-arm64", "linux-386", "redis-server-6.2.7-linux-386",
			"darwin-amd64", "redis-server-6.2.6-v5-darwin-amd64", "darwin-arm64", "redis-server-6.2.6-v5-darwin-arm64",
			"windows-amd64", "redis-server-5.0.14.1-windows-amd64.exe");

	private static @Nullable Path extracted;

	private RedisServerBinary() {
	}

	/**
	 * The executable to run: {@code redis-server} on {@code PATH}, else the embedded one.
	 * @return path of an executable {@code redis-server}
	 * @throws IllegalStateException if there is neither
	 */
	static Path resolve() {
		return onPath(isWindows() ? "redis-server.exe" : "redis-server").orElseGet(RedisServerBinary::embedded);
	}

	/**
	 * Looks for an executable in the directories of the {@code PATH} environment
	 * variable.
	 * @param name the executable's file name, such as {@code redis-server}
	 * @return the first executable found, if any
	 */
	static Optional<Path> onPath(String name) {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String directory : path.split(File.pathSeparator)) {
			if (!directory.isBlank()) {
				Path candidate = Path.of(directory).resolve(name);
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return Optional.of(candidate);
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * The embedded-redis binary for this platform, extracted on first use and reused
	 * afterwards.
	 * @return path of the extracted executable
	 * @throws IllegalStateException if the artifact has no binary for this platform or is
	 * not on the class path
	 */
	static synchronized Path embedded() {
		Path binary = extracted;
		if (binary == null || !Files.isExecutable(binary)) {
			binary = extract(embeddedResourceName(System.getProperty("os.name"), System.getProperty("os.arch")));
			extracted = binary;
		}
		return binary;
	}

	/**
	 * Name of the embedded-redis resource for a platform.
	 * @param osName value of the {@code os.name} system property
	 * @param osArch value of the {@code os.arch} system property
	 * @return the resource name at the root of the embedded-redis jar
	 * @throws IllegalStateException if embedded-redis ships no binary for the platform
	 */
	static String embeddedResourceName(String osName, String osArch) {
		String platform = os(osName.toLowerCase(Locale.ROOT)) + "-" + arch(osArch.toLowerCase(Locale.ROOT));
		String resource = EMBEDDED.get(platform);
		if (resource == null) {
			throw new IllegalStateException("embedded-redis has no redis-server binary for " + osName + "/" + osArch
					+ "; install redis-server on the PATH");
		}
		return resource;
	}

	private static String os(String osName) {
		if (osName.startsWith("windows")) {
			return "windows";
		}
		return (osName.startsWith("mac") || osName.startsWith("darwin")) ? "darwin" : osName;
	}

	private static String arch(String osArch) {
		return switch (osArch) {
			case "amd64", "x86_64" -> "amd64";
			case "aarch64", "arm64" -> "arm64";
			case "x86", "i386", "i486", "i586", "i686" -> "386";
			default -> osArch;
		};
	}

	private static Path extract(String resource) {
		try (InputStream in = RedisServerBinary.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("Resource " + resource + " not found: is com.github.codemonstur:"
						+ "embedded-redis on the class path?");
			}
			Path target = Files.createTempFile("distlock-" + resource + "-", isWindows() ? ".exe" : "");
			target.toFile().deleteOnExit();
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
			if (!target.toFile().setExecutable(true, true)) {
				throw new IllegalStateException("Could not make " + target + " executable");
			}
			return target;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not extract " + resource + " from embedded-redis", ex);
		}
	}

	private static boolean isWindows() {
		return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
	}

}
