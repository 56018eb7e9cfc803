/**
 * Spring Boot Actuator support: the {@code distlock} endpoint and health indicator.
 */
@NullMarked
package dev.distlock.actuate;

import org.jspecify.annotations.NullMarked;
