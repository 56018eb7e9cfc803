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
