/**
 * How lock failures and invalid requests become HTTP problem details.
 */
@NullMarked
package dev.distlock.sample.web;

import org.jspecify.annotations.NullMarked;
