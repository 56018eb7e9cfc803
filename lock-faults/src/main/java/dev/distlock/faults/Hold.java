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
 * One locked body, as recorded by its holder.
 *
 * @param holder which process (or thread group) held it
 * @param start {@link System#nanoTime()} when the body started
 * @param end {@link System#nanoTime()} when it ended
 * @param token the fencing token it was given
 * @param fencedAccepted whether the fenced resource accepted its write (or, for a reader,
 * whether no write with a later token had come before its read)
 * @param exclusive whether the hold excludes every other hold of its key (an exclusive
 * lock, a writer), rather than sharing it (a reader, a semaphore's permit)
 * @param key the lock key, where holds of several keys are logged together; empty if not
 * recorded
 */
public record Hold(String holder, long start, long end, long token, boolean fencedAccepted, boolean exclusive,
		String key) {

	/**
	 * Creates an exclusive hold of an unrecorded key.
	 * @param holder which process (or thread group) held it
	 * @param start {@link System#nanoTime()} when the body started
	 * @param end {@link System#nanoTime()} when it ended
	 * @param token the fencing token it was given
	 * @param fencedAccepted whether the fenced resource accepted its write
	 */
	public Hold(String holder, long start, long end, long token, boolean fencedAccepted) {
		this(holder, start, end, token, fencedAccepted, true, "");
	}

	/**
	 * Parses a line {@code <start> <end> <token> <fencedAccepted> [<exclusive|shared>
	 * [<key>]]} of a worker's hold file; a hold without its kind is exclusive.
	 * @param holder the worker
	 * @param line the line
	 * @return the hold
	 */
	public static Hold parse(String holder, String line) {
		String[] words = line.trim().split(" ");
		boolean exclusive = words.length < 5 || !words[4].equals("shared");
		String key = (words.length > 5) ? words[5] : "";
		return new Hold(holder, Long.parseLong(words[0]), Long.parseLong(words[1]), Long.parseLong(words[2]),
				Boolean.parseBoolean(words[3]), exclusive, key);
	}

	/**
	 * Formats the hold as a line of a worker's hold file, for {@link #parse}.
	 * @return the line
	 */
	public String line() {
		return this.start + " " + this.end + " " + this.token + " " + this.fencedAccepted + " "
				+ (this.exclusive ? "exclusive" : "shared") + (this.key.isEmpty() ? "" : " " + this.key);
	}

	/**
	 * Whether the two bodies ran at the same time for at least a moment.
	 * @param other the other hold
	 * @return whether they overlap
	 */
	public boolean overlaps(Hold other) {
		return this.start < other.end && other.start < this.end;
	}

}
