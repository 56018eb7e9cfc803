/**
 * Redis implementation of the lock client: atomic acquire and compare-and-delete release,
 * owner tokens and waiting between attempts.
 */
@NullMarked
package dev.distlock.redis;

import org.jspecify.annotations.NullMarked;
