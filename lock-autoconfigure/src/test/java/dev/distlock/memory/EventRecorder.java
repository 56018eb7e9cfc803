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
