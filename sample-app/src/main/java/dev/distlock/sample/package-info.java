/**
 * The distlock sample application: three realistic scenarios for distributed locks.
 */
@NullMarked
package dev.distlock.sample;

import org.jspecify.annotations.NullMarked;
