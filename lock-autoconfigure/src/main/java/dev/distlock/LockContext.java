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

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The locks that {@link DistributedLock @DistributedLock} methods hold on the current
 * thread, so that the method body can read its fencing token or check its lease:
 * <pre class="code">
 * &#64;DistributedLock(key = "'lock:account:' + #id")
 * public void debit(long id, long cents) {
 *     long fence = LockContext.fencingToken();
 *     jdbc.update("update account set balance = balance - ?, fence = ? where id = ? and fence &lt; ?",
 *             cents, fence, id, fence);
 * }
 * </pre> {@link dev.distlock.fencing.FencedJdbc} and
 * {@link dev.distlock.fencing.FencedRedis} write such checks for you, with the token of
 * the current lock. The context belongs to the thread: work handed to another thread
 * ({@code @Async}, executors, reactive operators) does not see it.
 */
public final class LockContext {

	private static final ThreadLocal<Deque<LockHandle>> holds = ThreadLocal.withInitial(ArrayDeque::new);

	private LockContext() {
	}

	/**
	 * Returns the innermost lock held by a locked method on this thread.
	 * @return the lock, or empty outside locked methods
	 */
	public static Optional<LockHandle> current() {
		return Optional.ofNullable(holds.get().peek());
	}

	/**
	 * Returns the fencing token of the innermost lock held on this thread
	 * ({@link LockHandle#fencingToken()}: the first call may ask the store for it).
	 * @return the fencing token
	 * @throws IllegalStateException if called outside a locked method
	 * @throws LockLeaseLostException if the token is asked for only now, and the lock is
	 * no longer held
	 * @throws LockUnavailableException if the token is asked for only now, and the store
	 * does not answer
	 */
	public static long fencingToken() {
		return current()
			.orElseThrow(() -> new IllegalStateException(
					"No distributed lock is held on this thread: call LockContext from a @DistributedLock method"))
			.fencingToken();
	}

	/**
	 * Returns the fencing token of one key in the innermost lock held on this thread that
	 * holds the key, for methods that lock several keys: <pre class="code">
	 * &#64;DistributedLock(keys = { "'lock:account:' + #from", "'lock:account:' + #to" })
	 * public void transfer(long from, long to, long cents) {
	 *     long debitFence = LockContext.fencingToken("lock:account:" + from);
	 *     long creditFence = LockContext.fencingToken("lock:account:" + to);
	 * }
	 * </pre>
	 * @param key the Redis key, as {@link LockHandle#keys()} reports it (with the
	 * configured {@code distlock.key-prefix}, empty by default)
	 * @return the fencing token of that key
	 * @throws IllegalStateException if called outside a locked method
	 * @throws IllegalArgumentException if no lock held on this thread holds the key
	 */
	public static long fencingToken(String key) {
		Deque<LockHandle> stack = holds.get();
		if (stack.isEmpty()) {
			holds.remove();
			throw new IllegalStateException(
					"No distributed lock is held on this thread: call LockContext from a " + "@DistributedLock method");
		}
		for (LockHandle handle : stack) {
			if (handle.keys().contains(key)) {
				return handle.fencingToken(key);
			}
		}
		throw new IllegalArgumentException("No distributed lock held on this thread holds " + LockKeyQuoting.quote(key)
				+ "; the locks held are on "
				+ stack.stream()
					.flatMap((handle) -> handle.keys().stream())
					.distinct()
					.map(LockKeyQuoting::quote)
					.toList()
				+ ". Give the key as the lock's keys() report it, with distlock.key-prefix.");
	}

	/**
	 * Throws if the lease of a lock held on this thread is lost, for locked code to call
	 * between steps, so that work stops before it writes what another holder may be
	 * writing too: <pre class="code">
	 * &#64;DistributedLock(key = "'lock:report:' + #day")
	 * public void buildReport(LocalDate day) {
	 *     for (Batch batch : batches(day)) {
	 *         LockContext.checkLease();
	 *         write(batch);
	 *     }
	 * }
	 * </pre> The check is local and cheap (no call to Redis): it reads what the renewal
	 * of the lease last found and this process's conservative count of the lease's
	 * validity, as {@link LockHandle#isLeaseLost()}. Every lock held on the thread is
	 * checked, the outer ones of nested locked methods included.
	 * @throws LockLeaseLostException naming the lock, if the lease of a lock held on this
	 * thread is lost
	 * @throws IllegalStateException if called outside a locked method
	 */
	public static void checkLease() {
		Deque<LockHandle> stack = holds.get();
		if (stack.isEmpty()) {
			holds.remove();
			throw new IllegalStateException(
					"No distributed lock is held on this thread: call LockContext from a @DistributedLock method");
		}
		for (LockHandle handle : stack) {
			if (handle.isLeaseLost()) {
				throw LockLeaseLostException.whileHeld(handle,
						"LockContext.checkLease() stopped the work under the lock", null);
			}
		}
	}

	/**
	 * Makes a lock the current one until the returned scope is closed; for interceptors
	 * and integrations that run code under a lock.
	 * @param handle the lock now held
	 * @return the scope to close when the locked code ends, on the same thread
	 */
	public static Scope enter(LockHandle handle) {
		Deque<LockHandle> stack = holds.get();
		stack.push(handle);
		return () -> {
			stack.remove(handle);
			if (stack.isEmpty()) {
				holds.remove();
			}
		};
	}

	/**
	 * The time during which a lock is the current one.
	 */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		/**
		 * Ends the scope.
		 */
		@Override
		void close();

	}

}
