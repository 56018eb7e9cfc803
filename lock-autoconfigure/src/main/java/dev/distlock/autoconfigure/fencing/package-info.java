/**
 * Auto-configuration of fenced writes to a database and to Redis.
 */
@NullMarked
package dev.distlock.autoconfigure.fencing;

import org.jspecify.annotations.NullMarked;
