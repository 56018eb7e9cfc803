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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kills, when this JVM exits, every process the fault suite started and did not end
 * itself, so that a failed or interrupted scenario leaves no {@code redis-server} or
 * worker JVM behind.
 */
final class ProcessReaper {

	private static final Set<Process> processes = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> processes.forEach(Process::destroyForcibly), "fault-process-reaper"));
	}

	private ProcessReaper() {
	}

	static Process register(Process process) {
		processes.add(process);
		process.onExit().thenRun(() -> processes.remove(process));
		return process;
	}

}
