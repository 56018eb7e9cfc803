/**
 * Scenario 2: check-in queue numbers allocated in a relational database, under one lock
 * per gender that wraps the transaction's commit.
 */
@NullMarked
package dev.distlock.sample.checkin;

import org.jspecify.annotations.NullMarked;
