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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.MultiLockHandle;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.redis.protocol.MultiAcquireReply;
import dev.distlock.redis.protocol.RedisErrors;

/**
 * One attempt to acquire several keys of one hash slot at once, with one round trip
 * ({@code multi-acquire.lua}): all of them, each with its own fencing token, if every key
 * is free, else none. The keys granted become ordinary holds ({@link LockGrants}),
 * renewed, watched and released like any other, but never passed to another thread of the
 * client without Redis: they are not the client's cohort's tenure, so a release always
 * goes through Redis and its queue, where the client's own waiters for the key queue too.
 */
final class AllAtOnceAttempt {

	private final HoldServices services;

	private final ObservationRegistry observationRegistry;

	AllAtOnceAttempt(HoldServices services, ObservationRegistry observationRegistry) {
		this.services = services;
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Tries once to acquire every key.
	 * @param keys the Redis keys, distinct, in lock order, in one hash slot
	 * @param start when the call began, by {@link System#nanoTime()}
	 * @return the holds, or the key found held (the first key if the thread is
	 * interrupted)
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws LockMisconfigurationException if Redis refuses the attempt for a reason to
	 * fix
	 */
	Result attempt(List<String> keys, LockOptions options, long start) {
		if (Thread.currentThread().isInterrupted()) {
			return new Result(null, keys.get(0));
		}
		Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.services.renewalLease();
		this.services.commands().quarantine().checkLease(keys.get(0), lease);
		String token = this.services.tokens().next();
		Observation observation = LockObservationDocumentation.ACQUISITION.start(this.observationRegistry, keys.get(0),
				options);
		long sent = System.nanoTime();
		MultiAcquireReply reply;
		try {
			reply = this.services.commands().multiAcquire(keys, token, lease.toMillis());
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(keys.get(0), "acquire", ex);
			if (misconfigured == null) {
				// The script may have run although its reply was lost: undo it once Redis
				// answers.
				keys.forEach((key) -> this.services.pending().release(key, token, sent + lease.toNanos()));
			}
			if (misconfigured == null && Thread.currentThread().isInterrupted()) {
				LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
				return new Result(null, keys.get(0));
			}
			throw failed(observation, keys.get(0), options, start, (misconfigured != null) ? misconfigured
					: this.services.commands().unavailable(keys.get(0), options.name(), "acquire", ex));
		}
		if (reply instanceof MultiAcquireReply.Held held) {
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
			return new Result(null, keys.get(held.index()));
		}
		MultiAcquireReply.Granted granted = (MultiAcquireReply.Granted) reply;
		if (new Grant(granted.fencingToken(0), 1, sent, lease).hasRunOut()) {
			// The reply came after the leases may have run out (a pause, a slow network):
			// let them go.
			keys.forEach((key) -> this.services.pending().release(key, token, sent + lease.toNanos()));
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
			return new Result(null, keys.get(0));
		}
		List<RedisLockHandle> holds = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			Grant grant = new Grant(granted.fencingToken(i), 1, sent, lease);
			holds.add(this.services.grants().grantedInRedis(keys.get(i), token, grant, lease, options, start));
		}
		LockObservationDocumentation.stop(observation, LockObservationDocumentation.ACQUIRED);
		for (RedisLockHandle hold : holds) {
			hold.observe(LockObservationDocumentation.HOLD.start(this.observationRegistry, hold.key(), options));
		}
		return new Result(new MultiLockHandle(holds), keys.get(0));
	}

	private RuntimeException failed(Observation observation, String key, LockOptions options, long start,
			RuntimeException failure) {
		if (failure instanceof LockUnavailableException unavailable) {
			this.services.events().unavailable(key, options, start, unavailable);
		}
		observation.error(failure);
		LockObservationDocumentation.stop(observation, LockObservationDocumentation.ERROR);
		return failure;
	}

	/**
	 * What the attempt got.
	 *
	 * @param handle the holds of every key, or null if none was acquired
	 * @param key the key found held if none was acquired (the first key if the grant came
	 * too late to trust), empty if no attempt was made
	 */
	record Result(@Nullable MultiLockHandle handle, String key) {

	}

}
