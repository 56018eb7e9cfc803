/**
 * Auto-configuration of the HTTP answers to lock failures.
 */
@NullMarked
package dev.distlock.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
