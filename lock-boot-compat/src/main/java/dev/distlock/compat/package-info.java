/**
 * The application that shows distlock works on each supported Spring Boot line.
 */
@NullMarked
package dev.distlock.compat;

import org.jspecify.annotations.NullMarked;
