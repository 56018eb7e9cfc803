package dev.distlock.fencing;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fenced writes to MariaDB, on a {@code mariadbd} the test starts (the upsert is the
 * fenced update, then an insert, then the fenced update again on a duplicate key).
 */
class MariaDbFencedJdbcTests extends AbstractFencedJdbcTests {

	private static MariaDbServer server;

	@BeforeAll
	static void startServer() {
		server = MariaDbServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Override
	protected DataSource createDataSource() {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(server.url("test"));
		dataSource.setUsername("root");
		dataSource.setPassword("");
		dataSource.setMaximumPoolSize(8);
		return dataSource;
	}

	@Override
	protected void closeDataSource(DataSource dataSource) {
		((HikariDataSource) dataSource).close();
	}

}
