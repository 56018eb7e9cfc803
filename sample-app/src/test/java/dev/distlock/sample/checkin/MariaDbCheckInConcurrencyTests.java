package dev.distlock.sample.checkin;

import dev.distlock.sample.support.TestDatabase;

/**
 * Scenario 2 under concurrent load on MariaDB (InnoDB, repeatable read).
 */
class MariaDbCheckInConcurrencyTests extends AbstractCheckInConcurrencyTests {

	@Override
	protected TestDatabase database() {
		return TestDatabase.mariaDb();
	}

}
