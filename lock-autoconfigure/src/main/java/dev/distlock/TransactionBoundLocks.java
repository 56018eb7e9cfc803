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

package dev.distlock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Releases a lock when the transaction of the current thread completes, for locks taken
 * in code through a {@link LockClient} inside a transaction that commits after the locked
 * work ends; what {@link LockRelease#AFTER_TRANSACTION} does for
 * {@link DistributedLock @DistributedLock} methods: <pre class="code">
 * LockHandle lock = lockClient.lock("lock:queue:" + gender);
 * try {
 *     int position = nextPosition(gender); // joins the caller's transaction
 *     ...
 * }
 * finally {
 *     TransactionBoundLocks.releaseAfterTransaction(lock);
 * }
 * </pre> The lock is kept until the transaction has committed or rolled back, with its
 * lease renewed; if the lease is found lost before the commit, the commit fails with a
 * {@link LockLeaseLostException} and the transaction is rolled back. Needs Spring's
 * transaction synchronization ({@code spring-tx}).
 */
public final class TransactionBoundLocks {

	private static final Log logger = LogFactory.getLog(TransactionBoundLocks.class);

	private TransactionBoundLocks() {
	}

	/**
	 * Releases the lock once the transaction active on this thread has completed, or now
	 * if no transaction synchronization is active.
	 * @param handle the lock, held by this thread
	 * @return whether the release waits for a transaction; false if it was released now
	 * @throws LockLeaseLostException if released now and the lease had been lost
	 * @throws LockUnavailableException if released now and Redis could not be reached
	 */
	public static boolean releaseAfterTransaction(LockHandle handle) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			handle.release();
			return false;
		}
		TransactionSynchronizationManager.registerSynchronization(new ReleaseAfterCompletion(handle));
		if (logger.isDebugEnabled()) {
			logger.debug("Keeping lock " + LockKeyQuoting.quote(handle.key())
					+ " until the transaction of this thread completes");
		}
		return true;
	}

	/**
	 * Releases a lock when a transaction has completed, committed or rolled back; refuses
	 * the commit if the lease was lost before it.
	 */
	private static final class ReleaseAfterCompletion implements TransactionSynchronization {

		private final LockHandle handle;

		ReleaseAfterCompletion(LockHandle handle) {
			this.handle = handle;
		}

		@Override
		public void beforeCommit(boolean readOnly) {
			if (this.handle.isLeaseLost()) {
				throw LockLeaseLostException.whileHeld(this.handle,
						"the transaction it was kept for is rolled back instead of committed", null);
			}
		}

		@Override
		public void afterCompletion(int status) {
			try {
				this.handle.release();
			}
			catch (LockLeaseLostException ex) {
				// The loss itself is logged, counted and told to the listeners by the
				// client
				logger.warn("Lock " + LockKeyQuoting.quote(this.handle.key()) + " (name "
						+ LockKeyQuoting.quote(this.handle.name()) + ") was lost before the transaction it was kept "
						+ "for completed (" + describe(status) + "): " + ex.getMessage());
			}
			catch (RuntimeException ex) {
				logger.warn("Could not release lock " + LockKeyQuoting.quote(this.handle.key())
						+ " after the transaction it was kept for completed (" + describe(status)
						+ "); it expires with its lease", ex);
			}
		}

		private static String describe(int status) {
			return switch (status) {
				case STATUS_COMMITTED -> "committed";
				case STATUS_ROLLED_BACK -> "rolled back";
				default -> "outcome unknown";
			};
		}

	}

}
