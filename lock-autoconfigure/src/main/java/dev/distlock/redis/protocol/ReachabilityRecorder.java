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

package dev.distlock.redis.protocol;

import java.util.function.Supplier;

/**
 * Runs the lock's commands one at a time, recording each in the client's
 * {@link RedisReachability} under the key that tells its node: sent, then answered or
 * failed. An error reply that means misconfiguration counts as an answer, with what to
 * fix; a failure of an interrupted caller, or an {@link Error}, says nothing about Redis.
 */
final class ReachabilityRecorder {

	private final RedisReachability reachability;

	/**
	 * Creates the recorder of one client.
	 * @param reachability where to record the commands
	 */
	ReachabilityRecorder(RedisReachability reachability) {
		this.reachability = reachability;
	}

	/**
	 * Runs one command, recording it in the client's reachability.
	 * @param key a Redis key of the command (on a cluster, all its keys share this one's
	 * slot)
	 * @param command the command
	 * @return what the command returned
	 */
	<T> T call(String key, Supplier<T> command) {
		long sent = this.reachability.sending(key);
		T result;
		try {
			result = command.get();
		}
		catch (RuntimeException ex) {
			// An error reply that means misconfiguration is an answer; an interrupted
			// caller says nothing about Redis.
			String misconfiguration = RedisErrors.fix(ex);
			this.reachability.done(key, sent, misconfiguration != null, Thread.currentThread().isInterrupted(),
					misconfiguration);
			throw ex;
		}
		catch (Error ex) {
			this.reachability.done(key, sent, false, true, null);
			throw ex;
		}
		this.reachability.done(key, sent, true, true, null);
		return result;
	}

}
