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

/**
 * When a {@link DistributedLock @DistributedLock} method that runs inside a transaction
 * started by its caller releases its lock: when the method returns, or when that
 * transaction completes.
 * <p>
 * A locked method that is itself {@code @Transactional} needs neither: the lock advisor
 * runs outside the transaction advisor, so the lock is taken before its transaction
 * begins and released after it commits. The choice matters for a locked method that joins
 * a transaction its caller began: its writes become visible only when the caller's
 * transaction commits, so a lock released when the method returns lets the next holder
 * read the data as it was before them. <pre class="code">
 * &#64;Transactional
 * public void checkIn(Guest guest) {
 *     int position = queue.nextPosition(guest.gender()); // locked, joins this transaction
 *     rooms.assign(guest, position);
 * } // commit: the lock of nextPosition is released here with AFTER_TRANSACTION
 * </pre>
 */
public enum LockRelease {

	/**
	 * The property {@code distlock.release} decides, which is {@link #ON_RETURN} unless
	 * set.
	 */
	DEFAULT,

	/**
	 * Release the lock when the method returns or throws, even if it joined a caller's
	 * transaction that commits later. This is the default because it holds each lock no
	 * longer than its method runs: holding it until a caller's transaction completes also
	 * holds it through whatever else that transaction does, and a transaction that calls
	 * two locked methods then holds both locks at once, so two transactions that call
	 * them in opposite orders wait for each other until one's wait time runs out.
	 */
	ON_RETURN,

	/**
	 * When the method runs inside a transaction that is still active when it returns (it
	 * joined its caller's transaction), keep the lock until that transaction has
	 * completed, committed or rolled back, through Spring's transaction synchronization
	 * ({@code TransactionSynchronization.afterCompletion}); outside a transaction,
	 * release it when the method returns. The lease is renewed until then, and a minimum
	 * hold still counts from the acquisition. If the lease is found lost before the
	 * commit, the transaction is rolled back with a {@link LockLeaseLostException}
	 * instead of committing writes another holder may have overlapped. Blocking methods
	 * only: transactions are bound to the calling thread, and a method returning
	 * {@code Mono}, {@code Flux}, {@code CompletionStage}, a Kotlin {@code suspend}
	 * function or a {@code Flow} that asks for it fails at startup.
	 */
	AFTER_TRANSACTION

}
