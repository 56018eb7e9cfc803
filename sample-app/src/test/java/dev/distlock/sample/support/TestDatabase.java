package dev.distlock.sample.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Assumptions;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A database the sample's instances share in a test: a fresh in-memory H2 database, or the
 * MariaDB / PostgreSQL server of the machine.
 * <p>
 * The servers are expected at {@code 127.0.0.1} ({@code DISTLOCK_TEST_MARIADB_URL} and
 * {@code DISTLOCK_TEST_POSTGRES_URL} override the JDBC URLs). When one cannot be reached, its
 * tests fail if {@code DISTLOCK_REQUIRE_DATABASES=true}, or if that variable is unset and
 * {@code CI=true} (CI machines have both servers); otherwise they are aborted with a message that
 * names the database, and reported as skipped.
 *
 * @param name the product name, for messages
 * @param url the JDBC URL
 * @param username the user
 * @param password the password
 * @param embedded whether Spring Boot treats it as embedded (and initializes it by default)
 */
public record TestDatabase(String name, String url, String username, String password, boolean embedded) {

	/**
	 * A new in-memory H2 database, reachable by name from every instance in this JVM while one of
	 * them holds a connection.
	 * @return the database
	 */
	public static TestDatabase h2() {
		return new TestDatabase("H2", "jdbc:h2:mem:sample-" + UUID.randomUUID(), "sa", "", true);
	}

	/**
	 * The MariaDB server's {@code test} database, as {@code root} without a password.
	 * @return the database, checked to be reachable
	 */
	public static TestDatabase mariaDb() {
		return reachable(new TestDatabase("MariaDB", env("DISTLOCK_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
				"root", "", false));
	}

	/**
	 * The PostgreSQL server's {@code test} database, as {@code postgres} with trust authentication.
	 * @return the database, checked to be reachable
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
	 * Deletes the rows of the sample's tables, which a server database keeps between runs.
	 * @param jdbc a client of this database
	 */
	public static void deleteAllRows(JdbcClient jdbc) {
		jdbc.sql("delete from check_in").update();
		jdbc.sql("delete from customer_order").update();
	}

	private static TestDatabase reachable(TestDatabase database) {
		try (Connection connection = DriverManager.getConnection(database.url(), database.username(),
				database.password())) {
			return database;
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
