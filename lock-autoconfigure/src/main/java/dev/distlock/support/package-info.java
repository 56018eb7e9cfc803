/**
 * Pieces that every lock client of distlock shares: the count of a thread's holds of one
 * lock, the handle of a re-entrant hold, and the logging of lock events with the telling
 * of listeners. Internal to distlock's clients: public only because they live in other
 * packages, with no compatibility promise.
 */
@NullMarked
package dev.distlock.support;

import org.jspecify.annotations.NullMarked;
