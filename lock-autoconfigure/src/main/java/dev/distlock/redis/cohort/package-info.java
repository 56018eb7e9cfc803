/**
 * Passing a lock between the threads of one client without Redis (lock cohorting): per
 * key, the threads of the client that want the lock queue here, one of them acquires it
 * in Redis as the representative, and a holder that releases passes it to the next thread
 * with the next fencing token of the block its grant reserved. Internal to
 * {@code dev.distlock.redis}: public only because its parent package uses it, with no
 * compatibility promise.
 */
@NullMarked
package dev.distlock.redis.cohort;

import org.jspecify.annotations.NullMarked;
