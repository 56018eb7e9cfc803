package dev.distlock.redis;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Creates owner tokens: 128 random bits per acquisition, so that no two acquisitions, in this
 * process or any other, share a token.
 */
final class LockTokens {

	private static final int TOKEN_BYTES = 16;

	private final SecureRandom random = new SecureRandom();

	String next() {
		byte[] bytes = new byte[TOKEN_BYTES];
		this.random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}
