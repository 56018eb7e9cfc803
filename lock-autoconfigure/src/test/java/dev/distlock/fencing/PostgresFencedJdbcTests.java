package dev.distlock.fencing;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

/**
 * Fenced writes to PostgreSQL on {@code 127.0.0.1:5432} (database {@code test}, user
 * {@code postgres}; the upsert is an {@code INSERT ... ON CONFLICT}). The URL, user and
 * password can be changed with the system properties {@code distlock.test.postgres.url},
 * {@code .user} and {@code .password}.
 */
class PostgresFencedJdbcTests extends AbstractFencedJdbcTests {

	@Override
	protected DataSource createDataSource() {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource
			.setJdbcUrl(System.getProperty("distlock.test.postgres.url", "jdbc:postgresql://127.0.0.1:5432/test"));
		dataSource.setUsername(System.getProperty("distlock.test.postgres.user", "postgres"));
		dataSource.setPassword(System.getProperty("distlock.test.postgres.password", ""));
		dataSource.setMaximumPoolSize(8);
		return dataSource;
	}

	@Override
	protected void closeDataSource(DataSource dataSource) {
		((HikariDataSource) dataSource).close();
	}

}
