/**
 * Side-by-side benchmarks of distlock and other Redis locks, run by {@code ./bench/run}.
 */
@NullMarked
package dev.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;
