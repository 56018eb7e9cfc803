/**
 * Fault injection for distlock: a TCP proxy that delays, blackholes, resets and drops
 * replies, {@code redis-server} processes killed and restarted with or without
 * persistence, and worker JVMs that hold and contend for locks on command.
 */
@NullMarked
package dev.distlock.faults;

import org.jspecify.annotations.NullMarked;
