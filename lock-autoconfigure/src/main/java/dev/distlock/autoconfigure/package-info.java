/**
 * Spring Boot auto-configuration of distlock.
 */
@NullMarked
package dev.distlock.autoconfigure;

import org.jspecify.annotations.NullMarked;
