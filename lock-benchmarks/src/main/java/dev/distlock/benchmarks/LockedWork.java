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

package dev.distlock.benchmarks;

import dev.distlock.DistributedLock;

/**
 * The annotated-method contender: a bean whose method runs its argument under the lock
 * named by its other argument, with the configured wait and lease.
 */
public class LockedWork {

	/**
	 * Runs the section under the lock on the key.
	 * @param key the lock key
	 * @param section the work
	 */
	@DistributedLock(key = "#key")
	public void run(String key, Runnable section) {
		section.run();
	}

}
