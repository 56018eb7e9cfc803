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

package dev.distlock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Records the figure a scenario measured, before its assertions run, on standard output
 * and in {@code target/fault-figures.txt}, the source of the table in
 * {@code docs/faults.md}.
 */
final class Figures {

	private static final Path FILE = Path.of("target", "fault-figures.txt");

	private Figures() {
	}

	static synchronized void record(String scenario, String format, Object... args) {
		String line = scenario + " | " + String.format(format, args);
		System.out.println("FAULTS " + line);
		try {
			Files.createDirectories(FILE.getParent());
			Files.writeString(FILE, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
