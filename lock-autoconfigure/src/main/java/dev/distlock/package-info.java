/**
 * Public API of distlock: {@link dev.distlock.DistributedLock @DistributedLock}, the
 * programmatic {@link dev.distlock.LockClient}, lock handles and exceptions.
 */
@NullMarked
package dev.distlock;

import org.jspecify.annotations.NullMarked;
