/**
 * The contract every {@link dev.distlock.LockClient} keeps, as an abstract JUnit suite to
 * run against a client by subclassing it.
 */
@org.jspecify.annotations.NullMarked
package dev.distlock.test.contract;
