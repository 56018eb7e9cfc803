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
