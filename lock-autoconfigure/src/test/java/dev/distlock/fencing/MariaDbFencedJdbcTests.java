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
