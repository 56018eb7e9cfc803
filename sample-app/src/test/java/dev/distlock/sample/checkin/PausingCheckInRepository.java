package dev.distlock.sample.checkin;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A {@link CheckInRepository} that makes the first check-in transaction of each gender
 * pause before its commit until the second one has read the maximum position
 * ({@link FirstCommitHold}), so that the race of a misplaced lock happens every time
 * instead of by chance. Only {@link MisplacedLockCheckInTests} uses it.
 */
class PausingCheckInRepository extends CheckInRepository {

	private final FirstCommitHold hold;

	PausingCheckInRepository(JdbcClient jdbc, FirstCommitHold hold) {
		super(jdbc);
		this.hold = hold;
	}

	@Override
	public int maxPosition(Gender gender) {
		int max = super.maxPosition(gender);
		if (this.hold.read(gender)) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void beforeCommit(boolean readOnly) {
					PausingCheckInRepository.this.hold.awaitSecondRead(gender);
				}

			});
		}
		return max;
	}

}
