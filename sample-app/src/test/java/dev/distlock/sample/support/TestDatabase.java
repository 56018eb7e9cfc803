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

package dev.distlock.sample.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Assumptions;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A database the sample's instances share in a test: a fresh in-memory H2 database, or
 * the MariaDB / PostgreSQL server of the machine, whose sample tables are dropped first.
 * <p>
 * The servers are expected at {@code 127.0.0.1} ({@code DISTLOCK_TEST_MARIADB_URL} and
 * {@code DISTLOCK_TEST_POSTGRES_URL} override the JDBC URLs). When one cannot be reached,
 * its tests fail if {@code DISTLOCK_REQUIRE_DATABASES=true}, or if that variable is unset
 * and {@code CI=true} (CI machines have both servers); otherwise they are aborted with a
 * message that names the database, and reported as skipped.
 *
 * @param name the product name, for messages
 * @param url the JDBC URL
 * @param username the user
 * @param password the password
 * @param embedded whether Spring Boot treats it as embedded (and initializes it by
 * default)
 */
public record TestDatabase(String name, String url, String username, String password, boolean embedded) {

	private static final List<String> SAMPLE_TABLES = List.of("check_in", "queue_head", "customer_order");

	/**
	 * A new in-memory H2 database, reachable by name from every instance in this JVM
	 * while one of them holds a connection.
	 * @return the database
	 */
	public static TestDatabase h2() {
		return new TestDatabase("H2", "jdbc:h2:mem:sample-" + UUID.randomUUID(), "sa", "", true);
	}

	/**
	 * The MariaDB server's {@code test} database, as {@code root} without a password.
	 * @return the database, checked to be reachable, without the sample's tables
	 */
	public static TestDatabase mariaDb() {
		return reachable(new TestDatabase("MariaDB",
				env("DISTLOCK_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"), "root", "", false));
	}

	/**
	 * The PostgreSQL server's {@code test} database, as {@code postgres} with trust
	 * authentication.
	 * @return the database, checked to be reachable, without the sample's tables
	 */
	public static TestDatabase postgreSql() {
		return reachable(new TestDatabase("PostgreSQL",
				env("DISTLOCK_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test"), "postgres", "", false));
	}

	/**
	 * Command line arguments that point an instance at this database.
	 * @return the arguments
	 */
	public List<String> arguments() {
		List<String> arguments = new ArrayList<>(List.of("--spring.datasource.url=" + this.url,
				"--spring.datasource.username=" + this.username, "--spring.datasource.password=" + this.password));
		if (!this.embedded) {
			arguments.add("--spring.sql.init.mode=always");
		}
		return arguments;
	}

	/**
	 * Deletes the rows of the sample's tables, which a server database keeps between
	 * runs, and starts the queues again from position 0 and fence 0.
	 * @param jdbc a client of this database
	 */
	public static void deleteAllRows(JdbcClient jdbc) {
		jdbc.sql("delete from check_in").update();
		jdbc.sql("update queue_head set last_position = 0, fence = 0").update();
		jdbc.sql("delete from customer_order").update();
	}

	/**
	 * Checks that a server database is reachable and drops the sample's tables in it, so
	 * that the instances create them from the current {@code schema.sql} whatever an
	 * earlier run left behind.
	 */
	private static TestDatabase reachable(TestDatabase database) {
		Connection connection;
		try {
			connection = DriverManager.getConnection(database.url(), database.username(), database.password());
		}
		catch (SQLException ex) {
			String message = database.name() + " is not reachable at " + database.url() + " (" + ex.getMessage()
					+ "), so its tests cannot run. Start it, or set DISTLOCK_TEST_"
					+ database.name().toUpperCase().replace("POSTGRESQL", "POSTGRES") + "_URL.";
			if (databasesRequired()) {
				throw new IllegalStateException(message + " They are required here (DISTLOCK_REQUIRE_DATABASES=true, "
						+ "or CI=true without DISTLOCK_REQUIRE_DATABASES).", ex);
			}
			System.err.println("WARNING: " + message + " Skipping them; set DISTLOCK_REQUIRE_DATABASES=true to fail.");
			return Assumptions.abort(message + " Set DISTLOCK_REQUIRE_DATABASES=true to fail instead of skipping.");
		}
		try (connection; Statement statement = connection.createStatement()) {
			for (String table : SAMPLE_TABLES) {
				statement.execute("drop table if exists " + table);
			}
			return database;
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not drop the sample's tables in " + database.name(), ex);
		}
	}

	static boolean databasesRequired() {
		String required = System.getenv("DISTLOCK_REQUIRE_DATABASES");
		if (required != null && !required.isBlank()) {
			return Boolean.parseBoolean(required.trim());
		}
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

}
