package dev.distlock.aop;

import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

import dev.distlock.DistributedLockException;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;

/**
 * Runs {@link dev.distlock.DistributedLock @DistributedLock} methods under their lock: evaluates
 * the key, acquires through the {@link LockClient} (or throws, so the method never runs
 * unlocked), invokes the method and releases the lock however the method ends.
 * <p>
 * If the method throws, its exception propagates as it is; a failed release is attached to it
 * as suppressed. If the method returns but the release finds the lease lost, the caller gets
 * the {@link dev.distlock.LockLeaseLostException}.
 */
public class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockDefinitionSource definitions;

	private final LockKeyEvaluator keyEvaluator;

	private final Supplier<LockClient> client;

	/**
	 * Creates an interceptor.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client) {
		this.definitions = definitions;
		this.keyEvaluator = keyEvaluator;
		this.client = client;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : invocation.getMethod().getDeclaringClass();
		LockDefinition definition = this.definitions.find(invocation.getMethod(), targetClass);
		if (definition == null) {
			return invocation.proceed();
		}
		String key = this.keyEvaluator.evaluate(definition, invocation.getArguments(), target, targetClass);
		if (logger.isTraceEnabled()) {
			logger.trace("Lock key of " + definition.method() + " is '" + key + "'");
		}
		LockClient lockClient = this.client.get();
		LockHandle handle = lockClient.lock(key, definition.options(lockClient.defaultOptions()));
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
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
		catch (DistributedLockException ex) {
			failure.addSuppressed(ex);
		}
	}

}
