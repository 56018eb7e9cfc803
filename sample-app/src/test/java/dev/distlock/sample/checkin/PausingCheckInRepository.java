package dev.distlock.sample.checkin;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A {@link CheckInRepository} whose inserts make the transaction pause before its commit, at the
 * {@link CommitBarriers}, so that the race of a misplaced lock happens every time instead of by
 * chance. Only {@link MisplacedLockCheckInTests} uses it.
 */
class PausingCheckInRepository extends CheckInRepository {

	private final CommitBarriers barriers;

	PausingCheckInRepository(JdbcClient jdbc, CommitBarriers barriers) {
		super(jdbc);
		this.barriers = barriers;
	}

	@Override
	public void insert(CheckIn checkIn) {
		super.insert(checkIn);
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

			@Override
			public void beforeCommit(boolean readOnly) {
				PausingCheckInRepository.this.barriers.await(checkIn.gender());
			}

		});
	}

}
