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
