/**
 * Observability of locks: the Micrometer observations of acquiring and holding them, and
 * their meters.
 */
@NullMarked
package dev.distlock.observation;

import org.jspecify.annotations.NullMarked;
