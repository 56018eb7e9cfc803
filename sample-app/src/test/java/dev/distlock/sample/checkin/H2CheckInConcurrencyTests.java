package dev.distlock.sample.checkin;

import dev.distlock.sample.support.TestDatabase;

/**
 * Scenario 2 under concurrent load on the embedded H2 database.
 */
class H2CheckInConcurrencyTests extends AbstractCheckInConcurrencyTests {

	@Override
	protected TestDatabase database() {
		return TestDatabase.h2();
	}

}
