/**
 * A lock client that keeps locks in this JVM's memory, for tests and single-instance
 * development: {@link dev.distlock.memory.InMemoryLockClient}.
 */
@NullMarked
package dev.distlock.memory;

import org.jspecify.annotations.NullMarked;
