package dev.distlock.redis.protocol;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Creates owner tokens: 128 random bits per acquisition, so that no two acquisitions, in
 * this process or any other, share a token.
 */
public final class OwnerTokens {

	private static final int TOKEN_BYTES = 16;

	private final SecureRandom random = new SecureRandom();

	/**
	 * Returns a new random id, for example to name the channel of one client.
	 * @return 64 random bits in hexadecimal
	 */
	public String clientId() {
		byte[] bytes = new byte[8];
		this.random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	public String next() {
		byte[] bytes = new byte[TOKEN_BYTES];
		this.random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}
