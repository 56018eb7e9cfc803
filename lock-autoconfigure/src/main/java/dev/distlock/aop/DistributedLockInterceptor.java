package dev.distlock.aop;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockClient;

/**
 * Runs {@link dev.distlock.DistributedLock @DistributedLock} methods under their lock:
 * evaluates the key, acquires through the {@link LockClient}, invokes the method with the
 * lock as the {@link LockContext#current() current} one, and releases the lock however
 * the method ends.
 * <p>
 * If the lock is not acquired, or Redis is unavailable, the method is not invoked: the
 * lock's {@link LockFailurePolicy} decides whether the caller gets the exception (the
 * default), an empty value, or what the fallback method returns.
 * <p>
 * If the method throws, its exception propagates as it is; a failed release is attached
 * to it as suppressed. If the method returns but the release finds the lease lost, the
 * caller gets the {@link dev.distlock.LockLeaseLostException}.
 * <p>
 * The method runs inside the {@linkplain LockHandle#observation() observation of the
 * hold} (made by the client), so that tracing shows the work done under the lock as its
 * children; an exception the method throws is recorded as the observation's error.
 * <p>
 * Kotlin {@code suspend} functions and methods returning a {@code Flow} are locked
 * through the {@link ReactiveLockClient} instead ({@link CoroutineLocking}).
 */
public class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockDefinitionSource definitions;

	private final LockKeyEvaluator keyEvaluator;

	private final Supplier<LockClient> client;

	private final LockFailureHandler failureHandler = new LockFailureHandler();

	private final @Nullable CoroutineLocking coroutines;

	/**
	 * Creates an interceptor that locks no coroutines.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client) {
		this(definitions, keyEvaluator, client, () -> null);
	}

	/**
	 * Creates an interceptor.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 * @param reactiveClient supplies the reactive lock client of Kotlin {@code suspend}
	 * functions and {@code Flow} methods on first use, {@code null} if there is none
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client, Supplier<@Nullable ReactiveLockClient> reactiveClient) {
		this.definitions = definitions;
		this.keyEvaluator = keyEvaluator;
		this.client = client;
		this.coroutines = CoroutineMethods.SUPPORTED ? new CoroutineLocking(reactiveClient, this.failureHandler) : null;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		LockDefinition definition = this.definitions.find(invocation.getMethod(), targetClass);
		if (definition == null) {
			return invocation.proceed();
		}
		String key = this.keyEvaluator.evaluate(definition, invocation.getArguments(), target, targetClass);
		if (logger.isTraceEnabled()) {
			logger.trace("Lock key of " + definition.method() + " is " + LockKeyQuoting.quote(key));
		}
		if (this.coroutines != null && CoroutineMethods.isCoroutine(definition.method())) {
			return this.coroutines.invoke(definition, key, invocation);
		}
		LockClient lockClient = this.client.get();
		LockHandle handle;
		try {
			handle = lockClient.lock(key,
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
