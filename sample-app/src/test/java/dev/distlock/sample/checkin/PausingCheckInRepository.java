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
