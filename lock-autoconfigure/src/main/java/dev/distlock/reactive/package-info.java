/**
 * Locks held by reactive work: {@link dev.distlock.reactive.ReactiveLockClient}, whose
 * holds belong to a {@code Mono} or {@code Flux} rather than to a thread.
 */
@NullMarked
package dev.distlock.reactive;

import org.jspecify.annotations.NullMarked;
