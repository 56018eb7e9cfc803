/**
 * Auto-configuration of the Micrometer meters of distlock.
 */
@NullMarked
package dev.distlock.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
