/**
 * HTTP answers to lock failures: RFC 9457 problem details for Spring MVC and WebFlux.
 */
@NullMarked
package dev.distlock.web;

import org.jspecify.annotations.NullMarked;
