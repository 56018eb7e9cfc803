/**
 * Test infrastructure: instances of the sample on shared Redis and databases, HTTP calls,
 * concurrent load.
 */
@NullMarked
package dev.distlock.sample.support;

import org.jspecify.annotations.NullMarked;
