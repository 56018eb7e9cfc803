/**
 * How a refused fenced write and invalid requests become HTTP problem details (distlock
 * answers its own lock failures).
 */
@NullMarked
package dev.distlock.sample.web;

import org.jspecify.annotations.NullMarked;
