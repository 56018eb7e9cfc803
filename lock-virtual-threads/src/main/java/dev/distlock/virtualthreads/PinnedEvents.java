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

package dev.distlock.virtualthreads;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of every {@code jdk.VirtualThreadPinned} event (threshold 0, with stack
 * traces): each time a virtual thread blocked while it could not leave its carrier.
 * Stopping it reads the events and counts those whose stack has a frame of a
 * {@code dev.distlock} class, or was cut short before its bottom frame.
 */
public final class PinnedEvents {

	/** The JFR event of a virtual thread that blocked while pinned to its carrier. */
	public static final String EVENT = "jdk.VirtualThreadPinned";

	private final Recording recording = new Recording();

	private PinnedEvents() {
		this.recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
		this.recording.setName("distlock-virtual-thread-pinning");
	}

	/**
	 * Starts recording.
	 * @return the recording, to {@link #stop()}
	 * @throws IllegalStateException if this JVM has no such event (before JDK 21)
	 */
	public static PinnedEvents start() {
		boolean known = FlightRecorder.getFlightRecorder()
			.getEventTypes()
			.stream()
			.anyMatch((type) -> type.getName().equals(EVENT));
		if (!known) {
			throw new IllegalStateException("This JVM (" + Runtime.version() + ") has no " + EVENT + " event");
		}
		PinnedEvents events = new PinnedEvents();
		events.recording.start();
		return events;
	}

	/**
	 * Stops recording and counts the events.
	 * @return the counts
	 */
	public Pinning stop() {
		this.recording.stop();
		try {
			Path file = Files.createTempFile("distlock-pinned-", ".jfr");
			try {
				this.recording.dump(file);
				return count(RecordingFile.readAllEvents(file));
			}
			finally {
				this.recording.close();
				Files.deleteIfExists(file);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the pinned-thread recording", ex);
		}
	}

	private static Pinning count(List<RecordedEvent> events) {
		int inDistlock = 0;
		String example = "";
		for (RecordedEvent event : events) {
			RecordedStackTrace stack = event.getStackTrace();
			if (stack == null || stack.isTruncated() || stack.getFrames().stream().anyMatch(PinnedEvents::isDistlock)) {
				inDistlock++;
				example = example.isEmpty() ? describe(event) : example;
			}
		}
		return new Pinning(events.size(), inDistlock, example);
	}

	private static boolean isDistlock(RecordedFrame frame) {
		return frame.getMethod() != null && frame.getMethod().getType().getName().startsWith("dev.distlock.");
	}

	private static String describe(RecordedEvent event) {
		StringBuilder text = new StringBuilder(
				event.hasField("pinnedReason") ? event.getString("pinnedReason") : EVENT);
		RecordedStackTrace stack = event.getStackTrace();
		if (stack != null) {
			stack.getFrames()
				.stream()
				.limit(12)
				.forEach((frame) -> text.append(" <- ")
					.append(frame.getMethod().getType().getName())
					.append('.')
					.append(frame.getMethod().getName()));
		}
		return text.toString();
	}

	/**
	 * What a recording found.
	 *
	 * @param total every pinned event
	 * @param inDistlock the events whose stack has a {@code dev.distlock} frame (or was
	 * cut short, so may have one)
	 * @param example the reason and top frames of the first such event; empty if none
	 */
	public record Pinning(int total, int inDistlock, String example) {

		/**
		 * Returns the counts as one line of tab-separated fields.
		 * @return the line
		 */
		public String toLine() {
			return this.total + "\t" + this.inDistlock + "\t" + this.example.replace('\t', ' ').replace('\n', ' ');
		}

		/**
		 * Reads counts back from {@link #toLine()}.
		 * @param line the line
		 * @return the counts
		 */
		public static Pinning parse(String line) {
			String[] fields = line.split("\t", -1);
			return new Pinning(Integer.parseInt(fields[0]), Integer.parseInt(fields[1]), fields[2]);
		}

	}

}
