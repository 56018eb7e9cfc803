package dev.distlock.redis;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A release's message to a waiter that it was handed the lock: the first fencing token of the
 * block the release reserved for it, and the size of that block. The release sets the lock to
 * the waiter's owner token for a short claim window only; the waiter confirms the hand-over by
 * extending it to its lease.
 *
 * @param fencingToken the first fencing token of the block
 * @param block how many fencing tokens the release reserved, 1 or more
 */
public record HandOver(long fencingToken, int block) {

	/**
	 * Reads the body of a hand-over message: {@code <owner token>:<fencing token>:<block>}.
	 * @param body the message body
	 * @return the owner token the message names, and the hand-over; {@code null} if the body is
	 * not a hand-over message
	 */
	static Map.@Nullable Entry<String, HandOver> parse(String body) {
		int blockSeparator = body.lastIndexOf(':');
		int fenceSeparator = (blockSeparator > 0) ? body.lastIndexOf(':', blockSeparator - 1) : -1;
		if (fenceSeparator <= 0) {
			return null;
		}
		try {
			long fence = Long.parseLong(body, fenceSeparator + 1, blockSeparator, 10);
			int block = Integer.parseInt(body, blockSeparator + 1, body.length(), 10);
			return Map.entry(body.substring(0, fenceSeparator), new HandOver(fence, block));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
