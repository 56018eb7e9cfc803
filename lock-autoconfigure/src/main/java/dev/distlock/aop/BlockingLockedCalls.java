package dev.distlock.aop;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * Locks calls of methods that do their work before they return: acquires through the
 * {@link LockClient} on the calling thread, invokes the method with the lock as the
 * {@link LockContext#current() current} one and inside the
 * {@linkplain LockHandle#observation() observation of the hold}, and releases the lock
 * however the method ends.
 * <p>
 * If the lock is not acquired, or Redis is unavailable, the method is not invoked and the
 * lock's {@link LockFailurePolicy} decides. If the method throws, its exception
 * propagates as it is (recorded as the observation's error); a failed release is attached
 * to it as suppressed. If the method returns but the release finds the lease lost, the
 * caller gets the {@link dev.distlock.LockLeaseLostException}.
 */
final class BlockingLockedCalls {

	private final Supplier<LockClient> client;

	private final LockFailureHandler failureHandler;

	BlockingLockedCalls(Supplier<LockClient> client, LockFailureHandler failureHandler) {
		this.client = client;
		this.failureHandler = failureHandler;
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
			handle = acquire.apply(lockClient,
					definition.options(lockClient.defaultOptions(definition.name())).withName(definition.name()));
		}
		catch (LockNotAcquiredException | LockUnavailableException ex) {
			return this.failureHandler.handle(definition, invocation, ex);
		}
		catch (InvalidLockKeyException ex) {
			throw new LockKeyExpressionException(definition.method(), definition.keyExpression(),
					"yielded a key that was refused: " + ex.getMessage(), ex);
		}
		Observation observation = handle.observation();
		Object result;
		try (LockContext.Scope scope = LockContext.enter(handle);
				Observation.Scope observed = observation.openScope()) {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			observation.error(ex);
			releaseAfterFailure(handle, ex);
			throw ex;
		}
		handle.release();
		return result;
	}

	private void releaseAfterFailure(LockHandle handle, Throwable failure) {
		try {
			handle.release();
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

}
