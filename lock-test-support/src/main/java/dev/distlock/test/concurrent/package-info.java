/**
 * Helpers for concurrency tests: running a task on many threads at once, and proving that
 * the holds of a lock never overlapped.
 */
@org.jspecify.annotations.NullMarked
package dev.distlock.test.concurrent;
