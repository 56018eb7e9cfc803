/**
 * Thousands of virtual-thread callers of distributed locks in two JVMs on JDK 25, and the
 * JFR view of carrier threads pinned meanwhile.
 */
@NullMarked
package dev.distlock.virtualthreads;

import org.jspecify.annotations.NullMarked;
