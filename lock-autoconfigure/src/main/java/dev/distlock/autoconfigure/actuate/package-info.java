/**
 * Auto-configuration of the {@code distlock} actuator endpoint and health indicator.
 */
@NullMarked
package dev.distlock.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
