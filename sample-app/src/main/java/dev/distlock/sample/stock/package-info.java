/**
 * Scenario 1: stock per SKU kept in Redis, decremented under one lock per SKU.
 */
@NullMarked
package dev.distlock.sample.stock;

import org.jspecify.annotations.NullMarked;
