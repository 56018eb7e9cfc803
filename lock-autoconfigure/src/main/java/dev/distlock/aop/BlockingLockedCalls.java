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

package dev.distlock.aop;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockRelease;
import dev.distlock.LockUnavailableException;
import dev.distlock.TransactionBoundLocks;

/**
 * Locks calls of methods that do their work before they return: acquires through the
 * {@link LockClient} on the calling thread, invokes the method with the lock as the
 * {@link LockContext#current() current} one and inside the
 * {@linkplain LockHandle#observation() observation of the hold}, and releases the lock
 * however the method ends: at once, or, for a method released
 * {@link LockRelease#AFTER_TRANSACTION} that ran inside a caller's transaction, once that
 * transaction has completed ({@link TransactionBoundLocks}).
 * <p>
 * If the lock is not acquired, or Redis is unavailable, the method is not invoked and the
 * lock's {@link LockFailurePolicy} decides. If the method throws, its exception
 * propagates as it is (recorded as the observation's error); a failed release is attached
 * to it as suppressed. If the method returns but the release finds the lease lost, the
 * caller gets the {@link LockLeaseLostException}. With {@code interruptOnLeaseLost}, the
 * thread running the method is interrupted when the lease is found lost
 * ({@link LeaseLossInterruption}), and the caller gets a {@link LockLeaseLostException}
 * whatever the method did, with what it threw as the cause.
 */
final class BlockingLockedCalls {

	private static final Log logger = LogFactory.getLog(BlockingLockedCalls.class);

	private static final boolean TRANSACTIONS_PRESENT = ClassUtils.isPresent(
			"org.springframework.transaction.support.TransactionSynchronizationManager",
			BlockingLockedCalls.class.getClassLoader());

	private final Supplier<LockClient> client;

	private final LockFailureHandler failureHandler;

	private final LockRelease defaultRelease;

	private final boolean interruptOnLeaseLost;

	/**
	 * The options each lock is acquired with, worked out on its method's first call: the
	 * client's options for the lock's name do not change once the client is built.
	 */
	private final Map<LockDefinition, ClientOptions> options = new ConcurrentHashMap<>();

	/**
	 * Creates the locking of blocking calls.
	 * @param client supplies the lock client
	 * @param failureHandler decides what a call gets when its lock is not taken
	 * @param defaultRelease when locks whose annotation says {@link LockRelease#DEFAULT}
	 * are released
	 * @param interruptOnLeaseLost whether to interrupt the thread running a locked method
	 * whose lease is found lost
	 */
	BlockingLockedCalls(Supplier<LockClient> client, LockFailureHandler failureHandler, LockRelease defaultRelease,
			boolean interruptOnLeaseLost) {
		this.client = client;
		this.failureHandler = failureHandler;
		this.defaultRelease = (defaultRelease != LockRelease.DEFAULT) ? defaultRelease : LockRelease.ON_RETURN;
		this.interruptOnLeaseLost = interruptOnLeaseLost;
	}

	/**
	 * Runs a call under its lock.
	 * @param definition the lock of the called method
	 * @param invocation the call
	 * @param key the evaluated lock key
	 * @return what the method, or the failure policy, returned
	 * @throws Throwable what the method threw, or the failure to acquire
	 */
	@Nullable Object invoke(LockDefinition definition, MethodInvocation invocation, String key) throws Throwable {
		return invoke(definition, invocation, (lockClient, options) -> lockClient.lock(key, options));
	}

	/**
	 * Runs a call under the locks of several keys, taken all or nothing.
	 * @param definition the lock of the called method
	 * @param invocation the call
	 * @param keys the evaluated lock keys
	 * @return what the method, or the failure policy, returned
	 * @throws Throwable what the method threw, or the failure to acquire
	 */
	@Nullable Object invoke(LockDefinition definition, MethodInvocation invocation, List<String> keys) throws Throwable {
		return invoke(definition, invocation, (lockClient, options) -> lockClient.lock(keys, options));
	}

	private @Nullable Object invoke(LockDefinition definition, MethodInvocation invocation,
			BiFunction<LockClient, LockOptions, LockHandle> acquire) throws Throwable {
		LockClient lockClient = this.client.get();
		LockHandle handle;
		try {
			handle = acquire.apply(lockClient, optionsOf(definition, lockClient));
		}
		catch (LockNotAcquiredException | LockUnavailableException ex) {
			return this.failureHandler.handle(definition, invocation, ex);
		}
		catch (InvalidLockKeyException ex) {
			throw new LockKeyExpressionException(definition.method(), definition.keyExpression(),
					"yielded a key that was refused: " + ex.getMessage(), ex);
		}
		Observation observation = handle.observation();
		LeaseLossInterruption interruption = this.interruptOnLeaseLost ? LeaseLossInterruption.start(handle, definition)
				: null;
		Object result;
		try (LockContext.Scope scope = LockContext.enter(handle);
				Observation.Scope observed = observation.openScope()) {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			Throwable failure = (interruption != null && interruption.stop()) ? LockLeaseLostException.whileHeld(handle,
					"the thread running " + definition.method().getName() + " was interrupted", ex) : ex;
			observation.error(failure);
			endAfterFailure(definition, handle, failure);
			throw failure;
		}
		if (interruption != null && interruption.stop()) {
			LockLeaseLostException lost = LockLeaseLostException.whileHeld(handle, "the thread running "
					+ definition.method().getName() + " was interrupted, and the method returned anyway", null);
			observation.error(lost);
			endAfterFailure(definition, handle, lost);
			throw lost;
		}
		end(definition, handle);
		return result;
	}

	/**
	 * Returns the options of a lock: its annotation's over the client's options for its
	 * name, kept per lock and client.
	 */
	private LockOptions optionsOf(LockDefinition definition, LockClient lockClient) {
		ClientOptions known = this.options.get(definition);
		if (known != null && known.client() == lockClient) {
			return known.options();
		}
		LockOptions options = definition.options(lockClient.defaultOptions(definition.name()))
			.withName(definition.name());
		this.options.put(definition, new ClientOptions(lockClient, options));
		return options;
	}

	/**
	 * Releases the lock now, or registers its release with the caller's transaction if
	 * the lock is released {@link LockRelease#AFTER_TRANSACTION} and one is active.
	 */
	private void end(LockDefinition definition, LockHandle handle) {
		LockRelease release = (definition.release() != LockRelease.DEFAULT) ? definition.release()
				: this.defaultRelease;
		if (release == LockRelease.AFTER_TRANSACTION && TRANSACTIONS_PRESENT) {
			TransactionBoundLocks.releaseAfterTransaction(handle);
			return;
		}
		handle.release();
	}

	private void endAfterFailure(LockDefinition definition, LockHandle handle, Throwable failure) {
		try {
			end(definition, handle);
		}
		catch (RuntimeException ex) {
			if (ex != failure) {
				failure.addSuppressed(ex);
			}
		}
	}

	/** The options of a lock, as worked out with one client. */
	private record ClientOptions(LockClient client, LockOptions options) {
	}

	/**
	 * Interrupts the thread that runs a locked method when the lease of its lock is found
	 * lost, and only while the method runs.
	 */
	private static final class LeaseLossInterruption implements Runnable {

		private final Thread thread = Thread.currentThread();

		private final LockHandle handle;

		private final LockDefinition definition;

		private boolean running = true;

		private boolean interrupted;

		private LockHandle.@Nullable LeaseLossWatch watch;

		private LeaseLossInterruption(LockHandle handle, LockDefinition definition) {
			this.handle = handle;
			this.definition = definition;
		}

		static LeaseLossInterruption start(LockHandle handle, LockDefinition definition) {
			LeaseLossInterruption interruption = new LeaseLossInterruption(handle, definition);
			interruption.watch = handle.whenLeaseLost(interruption);
			return interruption;
		}

		@Override
		public synchronized void run() {
			if (this.running && !this.interrupted) {
				this.interrupted = true;
				logger.warn("Interrupting thread " + this.thread.getName() + " running " + this.definition.method()
						+ ": the lease of lock " + LockKeyQuoting.quote(this.handle.key()) + " (name "
						+ LockKeyQuoting.quote(this.handle.name()) + ") was lost");
				this.thread.interrupt();
			}
		}

		/**
		 * Stops watching; clears the interrupt it caused, if any, from the thread.
		 * @return whether it interrupted the method
		 */
		boolean stop() {
			LockHandle.LeaseLossWatch watch = this.watch;
			if (watch != null) {
				watch.close();
			}
			synchronized (this) {
				this.running = false;
				if (this.interrupted) {
					Thread.interrupted();
				}
				return this.interrupted;
			}
		}

	}

}
