package dev.distlock.aop;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
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
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;
import dev.distlock.observation.LockObservationDocumentation;

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
 * With an {@link ObservationRegistry}, each locked call is observed from acquisition to
 * release ({@link LockObservationDocumentation#EXECUTION}), so that tracing shows the
 * hold as a span around the spans of the method.
 */
public class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockDefinitionSource definitions;

	private final LockKeyEvaluator keyEvaluator;

	private final Supplier<LockClient> client;

	private final Supplier<ObservationRegistry> observationRegistry;

	private final LockFailureHandler failureHandler = new LockFailureHandler();

	/**
	 * Creates an interceptor that observes nothing.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client) {
		this(definitions, keyEvaluator, client, () -> ObservationRegistry.NOOP);
	}

	/**
	 * Creates an interceptor that observes locked calls.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 * @param observationRegistry supplies, on first use, where locked calls are observed
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client, Supplier<ObservationRegistry> observationRegistry) {
		this.definitions = definitions;
		this.keyEvaluator = keyEvaluator;
		this.client = client;
		this.observationRegistry = observationRegistry;
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
		Observation observation = LockObservationDocumentation.EXECUTION.start(this.observationRegistry.get(),
				definition.name(), handle.key());
		Object result;
		try (LockContext.Scope scope = LockContext.enter(handle);
				Observation.Scope observed = observation.openScope()) {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			observation.error(ex);
			releaseAfterFailure(handle, ex);
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.ERROR);
			throw ex;
		}
		release(handle, observation);
		return result;
	}

	private static void release(LockHandle handle, Observation observation) {
		try {
			handle.release();
		}
		catch (RuntimeException ex) {
			observation.error(ex);
			LockObservationDocumentation.stop(observation, (ex instanceof LockLeaseLostException)
					? LockObservationDocumentation.LEASE_LOST : LockObservationDocumentation.ERROR);
			throw ex;
		}
		LockObservationDocumentation.stop(observation, LockObservationDocumentation.SUCCESS);
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
