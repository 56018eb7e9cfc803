/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.util.Assert;

import dev.distlock.LockListener;
import dev.distlock.LockOptions;

/**
 * Builds an {@link InMemoryLockClient}. Every setting has a default, the same as the
 * Redis client's: no key prefix, keys of at most {@value #DEFAULT_MAX_KEY_LENGTH}
 * characters, a wait of 5 seconds with auto-renewing leases of 30 seconds, no listeners
 * and no observations.
 */
public final class InMemoryLockClientBuilder {

	/** The longest lock key accepted by default, in characters, without the prefix. */
	public static final int DEFAULT_MAX_KEY_LENGTH = 1024;

	String keyPrefix = "";

	int maxKeyLength = DEFAULT_MAX_KEY_LENGTH;

	LockOptions defaultOptions = LockOptions.renewing(Duration.ofSeconds(5));

	final Map<String, UnaryOperator<LockOptions>> namedOptions = new LinkedHashMap<>();

	Duration renewalLease = Duration.ofSeconds(30);

	final List<LockListener> listeners = new ArrayList<>();

	ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	InMemoryLockClientBuilder() {
	}

	/**
	 * Sets the prefix prepended to every lock key, as the Redis client prepends it.
	 * @param keyPrefix the prefix, may be empty
	 * @return this builder
	 */
	public InMemoryLockClientBuilder keyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
		return this;
	}

	/**
	 * Sets the longest lock key accepted, in characters, without the prefix; a longer key
	 * is refused with an {@link dev.distlock.InvalidLockKeyException}, as the Redis
	 * client refuses it.
	 * @param maxKeyLength the limit, at least 1
	 * @return this builder
	 */
	public InMemoryLockClientBuilder maxKeyLength(int maxKeyLength) {
		Assert.isTrue(maxKeyLength >= 1, "maxKeyLength must be at least 1");
		this.maxKeyLength = maxKeyLength;
		return this;
	}

	/**
	 * Sets the options of calls that give none.
	 * @param defaultOptions the default options
	 * @return this builder
	 */
	public InMemoryLockClientBuilder defaultOptions(LockOptions defaultOptions) {
		this.defaultOptions = defaultOptions;
		return this;
	}

	/**
	 * Sets the options of locks of one name, as
	 * {@link dev.distlock.redis.RedisLockClientBuilder#defaultOptions(String, UnaryOperator)}
	 * does: {@link InMemoryLockClient#defaultOptions(String)} returns them.
	 * @param name the logical name of the lock
	 * @param options derives the name's options from the default options once the client
	 * is built; the result is given the name
	 * @return this builder
	 */
	public InMemoryLockClientBuilder defaultOptions(String name, UnaryOperator<LockOptions> options) {
		Assert.hasText(name, "name must not be blank");
		this.namedOptions.put(name, options);
		return this;
	}

	/**
	 * Sets the lease of auto-renewing locks: what their handles report as their lease
	 * time, and how long a lock whose holder thread ended without releasing it may keep a
	 * waiter out before the waiter finds out.
	 * @param renewalLease the lease, at least 3ms
	 * @return this builder
	 */
	public InMemoryLockClientBuilder renewalLease(Duration renewalLease) {
		Assert.isTrue(renewalLease.toMillis() >= 3, "renewalLease must be at least 3ms");
		this.renewalLease = renewalLease;
		return this;
	}

	/**
	 * Adds a listener told about acquisitions, waits, releases and lost leases.
	 * @param listener the listener
	 * @return this builder
	 */
	public InMemoryLockClientBuilder listener(LockListener listener) {
		this.listeners.add(listener);
		return this;
	}

	/**
	 * Sets where acquisitions and holds are observed
	 * ({@link dev.distlock.observation.LockObservationDocumentation#ACQUISITION},
	 * {@link dev.distlock.observation.LockObservationDocumentation#HOLD}).
	 * @param observationRegistry the registry, {@link ObservationRegistry#NOOP} for none
	 * @return this builder
	 */
	public InMemoryLockClientBuilder observationRegistry(ObservationRegistry observationRegistry) {
		this.observationRegistry = observationRegistry;
		return this;
	}

	/**
	 * Builds the client.
	 * @return the client
	 */
	public InMemoryLockClient build() {
		return new InMemoryLockClient(this);
	}

}
