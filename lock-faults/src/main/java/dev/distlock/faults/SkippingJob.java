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

package dev.distlock.faults;

import org.jspecify.annotations.Nullable;

import dev.distlock.DistributedLock;
import dev.distlock.LockFailureAction;

/**
 * A job that skips when another instance holds its lock, as the scheduled jobs of
 * docs/failures-and-http.md#scheduled-jobs-once-per-tick do.
 */
public class SkippingJob {

	/** What {@link #run(String)} returns when its body ran. */
	public static final String RAN = "ran";

	/**
	 * Runs the job under the lock, or skips (returns {@code null}) if the lock stays held
	 * for the wait time ({@code faults.skip.wait-time}, 10 s unless set).
	 * @param key the lock key
	 * @return {@link #RAN}, or {@code null} when skipped
	 */
	@DistributedLock(key = "#key", waitTime = "${faults.skip.wait-time:10s}", leaseTime = "10s",
			onNotAcquired = LockFailureAction.SKIP)
	public @Nullable String run(String key) {
		return RAN;
	}

}
