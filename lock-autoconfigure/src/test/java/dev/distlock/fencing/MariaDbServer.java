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

package dev.distlock.fencing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A {@code mariadbd} process on a free loopback port with a data directory of its own,
 * started by a test ({@code mariadb-install-db} and {@code mariadbd} must be on the PATH,
 * as in the Debian package {@code mariadb-server}), with a database {@code test} that
 * {@code root} reaches without a password.
 */
final class MariaDbServer implements AutoCloseable {

	private final Path directory;

	private final Process process;

	final int port;

	private MariaDbServer(Path directory, Process process, int port) {
		this.directory = directory;
		this.process = process;
		this.port = port;
	}

	static MariaDbServer start() {
		try {
			Path directory = Files.createTempDirectory("distlock-mariadb");
			run(directory, program("mariadb-install-db"), "--no-defaults", "--datadir=" + directory.resolve("data"),
					"--user=" + System.getProperty("user.name"), "--auth-root-authentication-method=normal",
					"--skip-test-db");
			int port = freePort();
			Process process = new ProcessBuilder(program("mariadbd"), "--no-defaults",
					"--datadir=" + directory.resolve("data"), "--user=" + System.getProperty("user.name"),
					"--port=" + port, "--bind-address=127.0.0.1", "--socket=" + directory.resolve("mariadb.sock"),
					"--pid-file=" + directory.resolve("mariadb.pid"), "--skip-grant-tables",
					"--log-error=" + directory.resolve("error.log"))
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("output.log").toFile())
				.start();
			MariaDbServer server = new MariaDbServer(directory, process, port);
			await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
				try (Connection connection = DriverManager.getConnection(server.url(""), "root", "")) {
					connection.createStatement().execute("create database if not exists test");
					return true;
				}
			});
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start mariadbd: is the MariaDB server (mariadb-server) "
					+ "installed, with mariadb-install-db and mariadbd on the PATH?", ex);
		}
	}

	/**
	 * The path of a MariaDB program: from the PATH, or from the system directories where
	 * Debian installs the server ({@code mariadbd} is in {@code /usr/sbin}, which a CI
	 * user's PATH may lack).
	 */
	private static String program(String name) {
		for (String directory : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/usr/bin:/usr/local/sbin")
			.split(":")) {
			if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, name))) {
				return Path.of(directory, name).toString();
			}
		}
		return name;
	}

	String url(String database) {
		return "jdbc:mariadb://127.0.0.1:" + this.port + "/" + database;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
			try (Stream<Path> files = Files.walk(this.directory)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void run(Path directory, String... command) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(directory.resolve("install.log").toFile())
			.start();
		try {
			if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException(
						String.join(" ", command) + " failed: " + Files.readString(directory.resolve("install.log")));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + command[0], ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
