package dev.distlock.faults;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;

/**
 * A listener bean that records when each key's lease was reported lost.
 */
public class LeaseLostRecorder implements LockListener {

	private final Map<String, Long> lost = new ConcurrentHashMap<>();

	@Override
	public void leaseLost(LockHandle handle) {
		this.lost.putIfAbsent(handle.key(), System.nanoTime());
	}

	/**
	 * When the lease of a key was reported lost.
	 * @param key the Redis key
	 * @return {@link System#nanoTime()} of the event, {@code -1} if none
	 */
	long lostAt(String key) {
		return this.lost.getOrDefault(key, -1L);
	}

}
