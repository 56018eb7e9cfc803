package dev.distlock.aop;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

import dev.distlock.DistributedLockException;
import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockClient;

/**
 * Runs {@link dev.distlock.DistributedLock @DistributedLock} Kotlin {@code suspend}
 * functions and methods returning a {@code Flow} under their lock, through the
 * {@link ReactiveLockClient}, so that no thread is blocked while acquiring or waiting.
 * <p>
 * Spring's proxies invoke a suspend function as a cold {@code Mono} (a {@code Flux} if it
 * returns a {@code Flow}) and await what the interceptors return; the lock is acquired
 * when it is awaited, held across every suspension of the body, renewed while it runs,
 * and released when the body returns, throws or is cancelled. A {@code Flow} is locked
 * from the start of its collection until it completes or its collector stops (Reactor's
 * bridge may run it ahead of a slow collector by a buffer). The hold is in the Reactor
 * context, which kotlinx-coroutines carries as the coroutine's {@code ReactorContext}:
 * nested locked calls of the same key in the same coroutine re-enter it, and
 * {@code ReactiveLockContext} reads it in the body. The method itself is invoked only
 * once the lock is held.
 */
final class CoroutineLocking {

	private final Supplier<@Nullable ReactiveLockClient> client;

	private final LockFailureHandler failureHandler;

	CoroutineLocking(Supplier<@Nullable ReactiveLockClient> client, LockFailureHandler failureHandler) {
		this.client = client;
		this.failureHandler = failureHandler;
	}

	/**
	 * Returns the call locked: a {@code Mono} or {@code Flux} for a suspend function (the
	 * proxy awaits it), a {@code Flow} for a method returning one.
	 * @param definition the lock of the method
	 * @param key the evaluated lock key
	 * @param invocation the call
	 * @return the locked work, in the form the proxy expects
	 */
	Object invoke(LockDefinition definition, String key, MethodInvocation invocation) {
		if (KotlinDetector.isSuspendingFunction(invocation.getMethod())) {
			Flux<Object> locked = locked(definition, key, invocation, (result) -> (Publisher<?>) result);
			return CoroutineMethods.returnsFlow(definition.method()) ? locked : locked.singleOrEmpty();
		}
		ReactiveAdapter flow = ReactiveAdapterRegistry.getSharedInstance()
			.getAdapter(invocation.getMethod().getReturnType());
		if (flow == null) {
			throw new IllegalStateException("No ReactiveAdapter for the Flow returned by " + definition.method());
		}
		return flow.fromPublisher(locked(definition, key, invocation, (result) -> flow.toPublisher(result)));
	}

	private Flux<Object> locked(LockDefinition definition, String key, MethodInvocation invocation,
			Function<Object, Publisher<?>> publisher) {
		return Flux.defer(() -> {
			ReactiveLockClient lockClient = client(definition.method());
			LockOptions options = definition.options(lockClient.defaultOptions(definition.name()))
				.withName(definition.name());
			MethodInvocation call = (invocation instanceof ProxyMethodInvocation proxied) ? proxied.invocableClone()
					: invocation;
			AtomicBoolean started = new AtomicBoolean();
			Flux<Object> work = Flux.defer(() -> {
				started.set(true);
				return Flux.from(publisher.apply(proceed(call, definition)));
			});
			return lockClient.withLock(key, options, work)
				.onErrorResume((ex) -> !started.get() && isAcquireFailure(ex),
						(ex) -> onFailure(definition, call, (DistributedLockException) ex, publisher))
				.onErrorMap((ex) -> !started.get() && ex instanceof InvalidLockKeyException,
						(ex) -> new LockKeyExpressionException(definition.method(), definition.keyExpression(),
								"yielded a key that was refused: " + ex.getMessage(), ex));
		});
	}

	private Flux<Object> onFailure(LockDefinition definition, MethodInvocation call, DistributedLockException failure,
			Function<Object, Publisher<?>> publisher) {
		try {
			Object instead = this.failureHandler.handle(definition, call, failure);
			return (instead != null) ? Flux.from(publisher.apply(instead)) : Flux.empty();
		}
		catch (Throwable ex) {
			return Flux.error(ex);
		}
	}

	private static boolean isAcquireFailure(Throwable ex) {
		return ex instanceof LockNotAcquiredException || ex instanceof LockUnavailableException;
	}

	private static Object proceed(MethodInvocation call, LockDefinition definition) {
		Object result;
		try {
			result = call.proceed();
		}
		catch (Throwable ex) {
			throw Exceptions.propagate(ex);
		}
		if (result == null) {
			throw new IllegalStateException(definition.method() + " returned null instead of a Flow");
		}
		return result;
	}

	private ReactiveLockClient client(Method method) {
		ReactiveLockClient lockClient = this.client.get();
		if (lockClient == null) {
			throw new IllegalStateException("@DistributedLock on " + method + " needs a ReactiveLockClient bean to "
					+ "lock a coroutine without blocking: define one, for example new ReactiveRedisLockClient("
					+ "redisLockClient, reactiveStringRedisTemplate)");
		}
		return lockClient;
	}

}
