package dev.distlock.redis.protocol;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@code inspect.lua} found of a key, parsed from its reply in one place: its
 * remaining time to live, and which of the tokens the client gave holds it (compared in
 * Redis, so that no other owner's token is read back).
 *
 * @param ttlMillis the remaining time to live in ms, -2 if there is no such key, -1 if it
 * never expires
 * @param holderIndex the 0-based index of the given token that holds the key, or -1 if
 * none does
 */
public record KeyInspection(long ttlMillis, int holderIndex) {

	/**
	 * Parses the script's reply: {ttl, 1-based index of the holding token or 0}.
	 * @param reply the reply, or {@code null} if there was none
	 * @return the inspection
	 * @throws IllegalStateException if the reply has not two numbers
	 */
	public static KeyInspection of(@Nullable List<Long> reply) {
		if (reply == null || reply.size() != 2) {
			throw new IllegalStateException("Unexpected reply of the inspect script: " + reply);
		}
		return new KeyInspection(reply.get(0), reply.get(1).intValue() - 1);
	}

	/**
	 * Returns whether the key exists.
	 * @return whether it exists
	 */
	public boolean exists() {
		return this.ttlMillis != -2;
	}

	/**
	 * Returns the remaining time to live.
	 * @return the time to live, or {@code null} if the key does not exist or never
	 * expires
	 */
	public @Nullable Duration remaining() {
		return (this.ttlMillis >= 0) ? Duration.ofMillis(this.ttlMillis) : null;
	}

}
