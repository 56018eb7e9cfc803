package dev.distlock.faults;

/**
 * One locked body, as recorded by its holder.
 *
 * @param holder which process (or thread group) held it
 * @param start {@link System#nanoTime()} when the body started
 * @param end {@link System#nanoTime()} when it ended
 * @param token the fencing token it was given
 * @param fencedAccepted whether the fenced resource accepted its write
 */
public record Hold(String holder, long start, long end, long token, boolean fencedAccepted) {

	/**
	 * Parses a line {@code <start> <end> <token> <fencedAccepted>} of a worker's hold
	 * file.
	 * @param holder the worker
	 * @param line the line
	 * @return the hold
	 */
	public static Hold parse(String holder, String line) {
		String[] words = line.trim().split(" ");
		return new Hold(holder, Long.parseLong(words[0]), Long.parseLong(words[1]), Long.parseLong(words[2]),
				Boolean.parseBoolean(words[3]));
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
