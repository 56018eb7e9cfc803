package dev.distlock.memory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * Records the events a client tells its listeners, with the key and the thread each came
 * on, so that the sequence one thread saw for one key can be compared.
 */
final class EventRecorder implements LockListener {

	private final List<Event> events = new CopyOnWriteArrayList<>();

	/**
	 * Returns the events of one key on one thread, in order.
	 * @param key the key, as the client reports it
	 * @param thread the thread
	 * @return the event names
	 */
	List<String> of(String key, Thread thread) {
		return this.events.stream()
			.filter((event) -> event.key().equals(key) && event.thread() == thread)
			.map(Event::name)
			.toList();
	}

	/**
	 * Returns the events of one key, on any thread, in order.
	 * @param key the key, as the client reports it
	 * @return the event names
	 */
	List<String> of(String key) {
		return this.events.stream().filter((event) -> event.key().equals(key)).map(Event::name).toList();
	}

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		record("acquired", handle.key());
	}

	@Override
	public void notAcquired(String key, LockOptions options, Duration waited) {
		record("notAcquired", key);
	}

	@Override
	public void unavailable(String key, LockOptions options, Duration waited, LockUnavailableException failure) {
		record("unavailable", key);
	}

	@Override
	public void startedWaiting(String key, LockOptions options) {
		record("startedWaiting", key);
	}

	@Override
	public void stoppedWaiting(String key, LockOptions options) {
		record("stoppedWaiting", key);
	}

	@Override
	public void released(LockHandle handle, Duration held) {
		record("released", handle.key());
	}

	@Override
	public void leaseLost(LockHandle handle) {
		record("leaseLost", handle.key());
	}

	private void record(String name, String key) {
		this.events.add(new Event(name, key, Thread.currentThread()));
	}

	private record Event(String name, String key, Thread thread) {

	}

}
