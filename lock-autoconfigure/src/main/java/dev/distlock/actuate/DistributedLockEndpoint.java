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

package dev.distlock.actuate;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

import dev.distlock.redis.monitor.HeldLockInfo;
import dev.distlock.redis.monitor.LockHolderInfo;
import dev.distlock.redis.monitor.LockKeyState;
import dev.distlock.redis.monitor.LockWaiterInfo;
import dev.distlock.redis.monitor.RedisLockMonitor;

/**
 * The {@code distlock} actuator endpoint: the locks this instance holds and the callers
 * waiting for one ({@code GET /actuator/distlock}), and the state of one key in Redis
 * ({@code GET /actuator/distlock/{key}}): for a read-write lock or a semaphore, all its
 * holders. Owner tokens are never shown. {@link ForceReleasingDistributedLockEndpoint}
 * adds releasing a lock by force.
 */
@Endpoint(id = "distlock")
public class DistributedLockEndpoint {

	private final RedisLockMonitor monitor;

	/**
	 * Creates the endpoint.
	 * @param monitor the monitor of the lock client
	 */
	public DistributedLockEndpoint(RedisLockMonitor monitor) {
		this.monitor = monitor;
	}

	/**
	 * Lists the locks held by this instance, by name and key, and the waiting callers by
	 * name.
	 * @return the held locks and waiters
	 */
	@ReadOperation
	public LocksDescriptor locks() {
		List<HeldLockInfo> locks = this.monitor.heldLocks()
			.stream()
			.sorted(Comparator.comparing(HeldLockInfo::name).thenComparing(HeldLockInfo::key))
			.toList();
		Map<String, List<WaiterDescriptor>> waiters = this.monitor.waiters()
			.stream()
			.sorted(Comparator.comparing(LockWaiterInfo::waitingFor).reversed())
			.collect(Collectors.groupingBy(LockWaiterInfo::name, TreeMap::new,
					Collectors.mapping(WaiterDescriptor::of, Collectors.toList())));
		return new LocksDescriptor(locks, waiters);
	}

	/**
	 * Reads the state of one key in Redis.
	 * @param key the Redis key as the list shows it (with the configured key prefix);
	 * slashes are allowed
	 * @return the state of the key
	 */
	@ReadOperation
	public KeyDescriptor key(@Selector(match = Match.ALL_REMAINING) String... key) {
		LockKeyState state = this.monitor.keyState(String.join("/", key));
		return new KeyDescriptor(state.key(), state.held(), state.timeToLive(), state.heldByThisInstance(),
				state.hold(), state.kind(), state.permits(), state.waiters(), state.holders());
	}

	/**
	 * Returns the monitor of the lock client.
	 * @return the monitor
	 */
	protected final RedisLockMonitor monitor() {
		return this.monitor;
	}

	/**
	 * The locks an instance holds and the callers waiting for one.
	 *
	 * @param locks the held locks, by name and key
	 * @param waiters the waiting callers by lock name, longest waiting first
	 */
	public record LocksDescriptor(List<HeldLockInfo> locks,
			Map<String, List<WaiterDescriptor>> waiters) implements OperationResponseBody {

	}

	/**
	 * A caller waiting for a lock.
	 *
	 * @param key the Redis key of the lock
	 * @param thread the name of the waiting thread
	 * @param waitingFor how long it has been waiting
	 * @param kind the kind of lock it waits for: {@code exclusive}, {@code read-write} or
	 * {@code semaphore}
	 * @param mode the mode it waits for: {@code exclusive}, {@code read} or {@code write}
	 * @param permits how many holders the key admits: more than 1 for a semaphore, else 1
	 */
	public record WaiterDescriptor(String key, String thread, Duration waitingFor, String kind, String mode,
			int permits) {

		static WaiterDescriptor of(LockWaiterInfo waiter) {
			return new WaiterDescriptor(waiter.key(), waiter.thread(), waiter.waitingFor(), waiter.kind(),
					waiter.mode(), waiter.permits());
		}

	}

	/**
	 * The state of a key in Redis.
	 *
	 * @param key the Redis key
	 * @param held whether the key exists, held by this instance or another
	 * @param timeToLive how long Redis keeps the key, if it exists and expires
	 * @param heldByThisInstance whether this instance holds the lock
	 * @param hold this instance's lock on the key, if it holds it (of a shared key, the
	 * first of its holds)
	 * @param kind {@code exclusive}, {@code read-write} or {@code semaphore}, if the key
	 * exists
	 * @param permits how many holders a semaphore admits, for a semaphore only
	 * @param waiters how many callers wait in the queue of a read-write lock or semaphore
	 * @param holders every holder of a read-write lock or semaphore whose lease has not
	 * ended: its kind, remaining lease, and whether it is this instance's; empty for an
	 * exclusive lock
	 */
	public record KeyDescriptor(String key, boolean held, @Nullable Duration timeToLive, boolean heldByThisInstance,
			@Nullable HeldLockInfo hold, @Nullable String kind, @Nullable Integer permits, @Nullable Integer waiters,
			List<LockHolderInfo> holders) implements OperationResponseBody {

	}

}
