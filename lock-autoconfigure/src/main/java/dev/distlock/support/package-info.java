/**
 * Pieces that every lock client of distlock shares: the count of a thread's holds of one
 * lock and the handle of a re-entrant hold. Internal to distlock's clients: public only
 * because they live in other packages, with no compatibility promise.
 */
@NullMarked
package dev.distlock.support;

import org.jspecify.annotations.NullMarked;
