/**
 * Scenario 3: a scheduled job that closes expired unpaid orders, run by one instance per
 * tick.
 */
@NullMarked
package dev.distlock.sample.orders;

import org.jspecify.annotations.NullMarked;
