/**
 * RedLock: locks held on a majority of several independent Redis masters, with fencing
 * tokens that never go backwards.
 */
@NullMarked
package dev.distlock.redlock;

import org.jspecify.annotations.NullMarked;
