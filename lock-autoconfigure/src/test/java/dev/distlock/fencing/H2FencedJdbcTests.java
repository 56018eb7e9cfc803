package dev.distlock.fencing;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

/**
 * Fenced writes to an embedded H2 database (the upsert is a {@code MERGE}).
 */
class H2FencedJdbcTests extends AbstractFencedJdbcTests {

	@Override
	protected DataSource createDataSource() {
		return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
	}

	@Override
	protected void closeDataSource(DataSource dataSource) {
		((EmbeddedDatabase) dataSource).shutdown();
	}

}
