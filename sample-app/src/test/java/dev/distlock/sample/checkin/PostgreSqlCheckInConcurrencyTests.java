package dev.distlock.sample.checkin;

import dev.distlock.sample.support.TestDatabase;

/**
 * Scenario 2 under concurrent load on PostgreSQL (read committed).
 */
class PostgreSqlCheckInConcurrencyTests extends AbstractCheckInConcurrencyTests {

	@Override
	protected TestDatabase database() {
		return TestDatabase.postgreSql();
	}

}
