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

package dev.distlock.sample.orders;

/**
 * What one tick of the close-expired-orders job did on this instance.
 *
 * @param ran whether this instance did the work (otherwise the job's lock was held: by
 * another instance running the tick, or kept for the minimum hold time after a run)
 * @param closed how many orders this instance closed
 */
public record CloseRun(boolean ran, int closed) {

	/**
	 * The tick was run here.
	 * @param closed how many orders were closed
	 * @return the run
	 */
	public static CloseRun ran(int closed) {
		return new CloseRun(true, closed);
	}

	/**
	 * The tick was skipped here because the job's lock was held.
	 * @return the run
	 */
	public static CloseRun skipped() {
		return new CloseRun(false, 0);
	}

}
