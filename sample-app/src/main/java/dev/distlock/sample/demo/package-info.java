/**
 * The {@code --demo} mode: two instances in one JVM under concurrent load, and a report.
 */
@NullMarked
package dev.distlock.sample.demo;

import org.jspecify.annotations.NullMarked;
