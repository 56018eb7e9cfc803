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

/**
 * One lock call of a failover scenario, as its caller saw it.
 *
 * @param caller the client and thread that called
 * @param key the lock key
 * @param start {@link System#nanoTime()} when the call started
 * @param end when it returned or threw
 * @param outcome {@link #GRANTED} or the simple name of the exception thrown
 * @param token the fencing token of a grant, {@code 0} otherwise
 * @param bodyEnd when the body of a grant ended, {@code 0} otherwise
 */
record FailoverCall(String caller, String key, long start, long end, String outcome, long token, long bodyEnd) {

	static final String GRANTED = "granted";

	boolean granted() {
		return GRANTED.equals(this.outcome);
	}

	Hold hold() {
		return new Hold(this.caller, this.end, this.bodyEnd, this.token, true);
	}

	long millis() {
		return (this.end - this.start) / 1_000_000;
	}

}
