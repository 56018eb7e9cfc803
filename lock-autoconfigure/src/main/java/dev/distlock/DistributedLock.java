package dev.distlock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Runs the annotated method only while holding a distributed lock on the key that {@link #key()}
 * evaluates to, across every instance of the application that shares the Redis server.
 * <p>
 * The lock is acquired before the method runs (waiting up to {@link #waitTime()}), held with a
 * lease of {@link #leaseTime()}, and released when the method returns or throws. If the lock
 * cannot be acquired the method is not invoked: the caller gets a
 * {@link LockNotAcquiredException}, or a {@link LockUnavailableException} when Redis cannot be
 * reached.
 * <pre class="code">
 * &#64;DistributedLock(key = "'lock:sku:' + #skuId")
 * public void decrementStock(long skuId) { ... }
 * </pre>
 * The annotation can be used as a meta-annotation; attributes are overridden with
 * {@link AliasFor @AliasFor}.
 *
 * @see LockClient
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/**
	 * Alias for {@link #key()}.
	 * @return the key expression
	 */
	@AliasFor("key")
	String value() default "";

	/**
	 * SpEL expression for the lock key, evaluated for every call. Method parameters are
	 * available by name ({@code #skuId}) and by index ({@code #p0}, {@code #a0}), beans as
	 * {@code @beanName}, and {@code ${...}} placeholders are resolved first. An expression that
	 * yields {@code null} or a blank string fails the call before the method runs. Required.
	 * @return the key expression
	 */
	@AliasFor("value")
	String key() default "";

	/**
	 * How long to wait for the lock when another holder has it, as a duration string such as
	 * {@code "500ms"}, {@code "5s"} or {@code "PT5S"}, or a {@code ${...}} placeholder. Empty
	 * means the configured {@code distlock.wait-time}; {@code "0"} means try once.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * How long the lock is leased before Redis expires it even if it was not released, in the
	 * same formats as {@link #waitTime()}. Empty means the configured
	 * {@code distlock.lease-time}. Choose a lease comfortably longer than the method runs.
	 * @return the lease time
	 */
	String leaseTime() default "";

}
