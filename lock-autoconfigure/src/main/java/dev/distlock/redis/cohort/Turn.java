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

package dev.distlock.redis.cohort;

/**
 * What a thread does after taking its turn for a lock among the threads of its client
 * ({@link LocalCohort#enter}): hold the lock another thread passed to it, acquire it in
 * Redis as the client's representative, or give up.
 */
public sealed interface Turn permits Turn.Passed, Turn.AcquireInRedis, Turn.GiveUp, Turn.Queued {

	/** Acquire the lock in Redis, as the client's representative for its key. */
	Turn ACQUIRE_IN_REDIS = new AcquireInRedis();

	/**
	 * Give up: the wait ended, or the caller may not wait while the client has the lock.
	 */
	Turn GIVE_UP = new GiveUp();

	/**
	 * Another thread of the client passed the lock on: hold it with what it passed.
	 *
	 * @param baton what the previous holder passed on
	 * @param confirmFirst whether Redis last confirmed the owner token longer than the
	 * {@link LocalCohort#CONFIRMATION_WINDOW} ago (the thread was woken late): the new
	 * holder has Redis confirm it before its hold begins, and a key found gone then marks
	 * the hold lost
	 */
	record Passed(Baton baton, boolean confirmFirst) implements Turn {
	}

	/** Acquire the lock in Redis. */
	record AcquireInRedis() implements Turn {
	}

	/** Give up. */
	record GiveUp() implements Turn {
	}

	/**
	 * A place in line behind the threads of the client that hold or want the lock: wait
	 * for the turn with {@link LocalCohort#awaitTurn}. Only {@link LocalCohort#enter}
	 * makes one (the waiter in its key's {@code KeyCohort}), and only
	 * {@link LocalCohort#awaitTurn} looks inside.
	 */
	non-sealed interface Queued extends Turn {

	}

}
