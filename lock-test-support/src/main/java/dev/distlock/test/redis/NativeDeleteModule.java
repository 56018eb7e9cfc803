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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A Redis module that gives a Redis 7 {@code redis-server} Redis 8.4's native conditional
 * delete, {@code DELEX key [IFEQ value | IFNE value]}, as a command of the server itself
 * (no script, no proxy): where no Redis 8.4 server is available, tests and benchmarks
 * start a real server that has the command with
 * {@code RedisServerProcess.startOnFreePort(NativeDeleteModule.loadArguments())}. The
 * module's source ({@code delex-module.c} beside this class) is compiled once per JVM
 * with the C compiler on {@code PATH} ({@code $CC}, else {@code cc}, else {@code gcc}).
 */
public final class NativeDeleteModule {

	private static final String SOURCE = "delex-module.c";

	private static @Nullable Path compiled;

	private NativeDeleteModule() {
	}

	/**
	 * The {@code redis-server} arguments that load the module.
	 * @return {@code --loadmodule} and the module's path
	 * @throws IllegalStateException if there is no C compiler or the module does not
	 * compile, with the compiler's output
	 */
	public static String[] loadArguments() {
		return new String[] { "--loadmodule", path().toString() };
	}

	/**
	 * The compiled module, compiled on the first call.
	 * @return the path of the shared library
	 * @throws IllegalStateException if there is no C compiler or the module does not
	 * compile, with the compiler's output
	 */
	public static synchronized Path path() {
		if (compiled == null) {
			compiled = compile();
		}
		return compiled;
	}

	private static Path compile() {
		try {
			Path directory = Files.createTempDirectory("distlock-delex-module");
			directory.toFile().deleteOnExit();
			Path source = directory.resolve(SOURCE);
			try (InputStream in = NativeDeleteModule.class.getResourceAsStream(SOURCE)) {
				if (in == null) {
					throw new IllegalStateException(
							SOURCE + " is missing beside " + NativeDeleteModule.class.getName());
				}
				Files.copy(in, source);
			}
			source.toFile().deleteOnExit();
			Path library = directory.resolve("delex-module.so");
			List<String> command = List.of(compiler(), "-shared", "-fPIC", "-O2", "-o", library.toString(),
					source.toString());
			// The compiler's output goes to a file, so that the wait below is bounded
			// even if
			// it hangs without closing its output.
			Path log = directory.resolve("compile.log");
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			log.toFile().deleteOnExit();
			boolean exited = process.waitFor(60, TimeUnit.SECONDS);
			if (!exited || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException("Could not compile the DELEX module with " + String.join(" ", command)
						+ (exited ? "" : " (no result in 60 s)") + ":\n"
						+ Files.readString(log, StandardCharsets.UTF_8));
			}
			library.toFile().deleteOnExit();
			return library;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not compile the DELEX module (is a C compiler on PATH?)", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while compiling the DELEX module", ex);
		}
	}

	private static String compiler() {
		String fromEnvironment = System.getenv("CC");
		if (fromEnvironment != null && !fromEnvironment.isBlank()) {
			return fromEnvironment;
		}
		for (String candidate : List.of("cc", "gcc")) {
			if (RedisServerBinary.onPath(candidate).isPresent()) {
				return candidate;
			}
		}
		throw new IllegalStateException("No C compiler on PATH (cc or gcc, or set CC) to compile the DELEX module "
				+ "that gives redis-server " + "Redis 8.4's native conditional delete");
	}

}
