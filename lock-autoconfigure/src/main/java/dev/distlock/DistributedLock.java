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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Runs the annotated method only while holding a distributed lock on the key that
 * {@link #key()} evaluates to, across every instance of the application that shares the
 * Redis server.
 * <p>
 * The lock is acquired before the method runs (waiting up to {@link #waitTime()}), held
 * with a lease of {@link #leaseTime()} (renewed automatically by default), and released
 * when the method returns or throws (or, with {@link #release()}, when a transaction of
 * the caller that the method joined completes). If the lock cannot be acquired the method
 * is not invoked: by default the caller gets a {@link LockNotAcquiredException}, or a
 * {@link LockUnavailableException} when Redis cannot be reached;
 * {@link #onNotAcquired()}, {@link #onUnavailable()} and {@link #fallbackMethod()} choose
 * to skip the call or run a fallback instead. Inside the method, {@link LockContext}
 * gives the lock's fencing token. <pre class="code">
 * &#64;DistributedLock(key = "'lock:sku:' + #skuId")
 * public void decrementStock(long skuId) { ... }
 * </pre> The annotation can be used as a meta-annotation; attributes are overridden with
 * {@link AliasFor @AliasFor}.
 *
 * @see LockClient
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/**
	 * The {@link #leaseTime()} that renews the lease automatically for as long as the
	 * method runs, by one renewal thread for all locks of the client.
	 */
	String AUTO_RENEW = "-1";

	/**
	 * Alias for {@link #key()}.
	 * @return the key expression
	 */
	@AliasFor("key")
	String value() default "";

	/**
	 * SpEL expression for the lock key, evaluated for every call. Method parameters are
	 * available by name ({@code #skuId}) and by index ({@code #p0}, {@code #a0}), beans
	 * as {@code @beanName}, and {@code ${...}} placeholders are resolved first. An
	 * expression that yields {@code null} or a blank string fails the call before the
	 * method runs. Required.
	 * @return the key expression
	 */
	@AliasFor("value")
	String key() default "";

	/**
	 * SpEL expressions of several keys to lock together, all or nothing, instead of one
	 * {@link #key()}: <pre class="code">
	 * &#64;DistributedLock(keys = { "'lock:account:' + #from", "'lock:account:' + #to" })
	 * public void transfer(long from, long to, long cents) { ... }
	 * </pre> The method runs only once every key is held. Keys are acquired in one fixed
	 * order whatever the order written here, so that two calls locking the same keys in
	 * opposite orders cannot deadlock; keys that evaluate to the same value are locked
	 * once. Each key has its own fencing token ({@code LockContext.fencingToken(key)}).
	 * Exclusive locks only. Empty (the default) when {@link #key()} is given; one of the
	 * two is required.
	 * @return the key expressions
	 */
	String[] keys() default {};

	/**
	 * How the lock is shared: {@link LockMode#EXCLUSIVE} (the default), or the
	 * {@link LockMode#READ read} or {@link LockMode#WRITE write} side of a read-write
	 * lock on the key.
	 * @return the mode
	 */
	LockMode mode() default LockMode.EXCLUSIVE;

	/**
	 * How many holders of the key may run at once across all instances: 1 (the default)
	 * for a lock, more for a semaphore, for example to allow at most 5 concurrent calls
	 * to a slow partner API. Each permit has its own lease and renewal, and waiters are
	 * served first come, first served. Every method that locks the same key expression
	 * must give the same number; checked at startup, and by Redis for keys written in
	 * different ways.
	 * @return the number of permits, at least 1
	 */
	int permits() default 1;

	/**
	 * Logical name of the lock: the tag of its meters and observations, the name the
	 * {@code distlock} actuator endpoint lists it under, and the name its settings are
	 * configured under ({@code distlock.locks.<name>.*}). Unlike the key it is the same
	 * for every call, so it never multiplies meters. {@code ${...}} placeholders are
	 * resolved. Empty means the simple name of the declaring class, a dot and the method
	 * name, such as {@code "StockService.decrement"}.
	 * @return the lock name
	 */
	String name() default "";

	/**
	 * How long to wait for the lock when another holder has it, as a duration string such
	 * as {@code "500ms"}, {@code "5s"} or {@code "PT5S"}, or a {@code ${...}}
	 * placeholder. Empty means the configured {@code distlock.locks.<name>.wait-time},
	 * else {@code distlock.wait-time}; {@code "0"} means try once.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * How long the lock is leased before Redis expires it even if it was not released, in
	 * the same formats as {@link #waitTime()}, or {@link #AUTO_RENEW} to renew the lease
	 * while the method runs. Empty means the configured
	 * {@code distlock.locks.<name>.lease-time}, else {@code distlock.lease-time}, which
	 * renews automatically when it is not set.
	 * @return the lease time
	 */
	String leaseTime() default "";

	/**
	 * How long the lock is kept at least, counted from its acquisition, even if the
	 * method returns earlier: the key is then left to expire instead of being deleted.
	 * Use it for scheduled jobs, so that an instance whose clock runs slightly behind
	 * cannot run the same tick again. Same formats as {@link #waitTime()}; empty means
	 * the configured {@code distlock.locks.<name>.min-hold-time}, else the minimum hold
	 * of the client's default options (none for the auto-configured client).
	 * @return the minimum hold time
	 */
	String minHoldTime() default "";

	/**
	 * When the lock is released if the method joins a transaction its caller began:
	 * {@link LockRelease#ON_RETURN} when the method returns, or
	 * {@link LockRelease#AFTER_TRANSACTION} once that transaction has committed or rolled
	 * back, so that the next holder reads what this call wrote.
	 * {@link LockRelease#DEFAULT} (the default) means the property
	 * {@code distlock.release}, which is {@code on-return} unless set: holding a lock
	 * through the rest of a caller's transaction is a choice, since it holds it longer
	 * and can make transactions that lock in different orders wait for each other. A
	 * method that is itself {@code @Transactional} is released after its own commit
	 * either way. Blocking methods only; checked at startup.
	 * @return when the lock is released
	 */
	LockRelease release() default LockRelease.DEFAULT;

	/**
	 * What to do when the lock is held by someone else beyond the wait time.
	 * {@link #fallbackMethod()} implies {@link LockFailureAction#FALLBACK}.
	 * @return the action, {@link LockFailureAction#THROW} by default
	 */
	LockFailureAction onNotAcquired() default LockFailureAction.THROW;

	/**
	 * What to do when Redis cannot be reached. Skipping or falling back here means
	 * running without knowing whether another instance holds the lock, so it must be
	 * asked for explicitly.
	 * @return the action, {@link LockFailureAction#THROW} by default
	 */
	LockFailureAction onUnavailable() default LockFailureAction.THROW;

	/**
	 * Name of a method of the same bean to call instead when the lock is not acquired
	 * (and, with {@code onUnavailable = FALLBACK}, when Redis cannot be reached). It
	 * takes the same parameters, optionally followed by one parameter of a
	 * {@link DistributedLockException} type, and returns a type assignable to this
	 * method's return type (anything, for a {@code void} method). It may have any
	 * visibility and is called on the target object, not through the proxy, so it runs
	 * without the lock. A trailing exception parameter must accept every failure the
	 * fallback is used for, and two overloads that both fit are rejected. With
	 * {@code onNotAcquired = SKIP}, a fallback is only used for
	 * {@code onUnavailable = FALLBACK}. Checked at startup.
	 * @return the fallback method name, empty for none
	 */
	String fallbackMethod() default "";

}
