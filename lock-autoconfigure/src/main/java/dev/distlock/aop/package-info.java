/**
 * The advisor that locks {@link dev.distlock.DistributedLock @DistributedLock} methods:
 * definition parsing, key expression evaluation and the method interceptor.
 */
@NullMarked
package dev.distlock.aop;

import org.jspecify.annotations.NullMarked;
