package dev.distlock.fencing;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

/**
 * The documented JPA pattern against an embedded H2 database.
 */
class H2JpaFencingTests extends AbstractJpaFencingTests {

	@Override
	protected DataSource createDataSource() {
		return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
	}

	@Override
	protected void closeDataSource(DataSource dataSource) {
		((EmbeddedDatabase) dataSource).shutdown();
	}

}
