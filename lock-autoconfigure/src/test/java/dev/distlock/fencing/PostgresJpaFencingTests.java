package dev.distlock.fencing;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The documented JPA pattern against PostgreSQL on {@code 127.0.0.1:5432} (database
 * {@code test}, user {@code postgres}), with the system properties of
 * {@link PostgresFencedJdbcTests} to change the URL, user and password.
 */
class PostgresJpaFencingTests extends AbstractJpaFencingTests {

	@Override
	protected DataSource createDataSource() {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource
			.setJdbcUrl(System.getProperty("distlock.test.postgres.url", "jdbc:postgresql://127.0.0.1:5432/test"));
		dataSource.setUsername(System.getProperty("distlock.test.postgres.user", "postgres"));
		dataSource.setPassword(System.getProperty("distlock.test.postgres.password", ""));
		dataSource.setMaximumPoolSize(4);
		return dataSource;
	}

	@Override
	protected void closeDataSource(DataSource dataSource) {
		((HikariDataSource) dataSource).close();
	}

}
