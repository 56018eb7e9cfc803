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

package dev.distlock.redis.protocol;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Creates owner tokens: 128 random bits per acquisition, so that no two acquisitions, in
 * this process or any other, share a token.
 * <p>
 * The bits come from the JDK's {@code DRBG} generator (NIST SP 800-90A), seeded from the
 * system's entropy once, when the tokens are created: after that, making a token is
 * computation only. Reactive acquisitions make theirs on a Lettuce event loop or on
 * Reactor's timer, where the platform's default {@code SecureRandom} ({@code NativePRNG}
 * on Linux) would read {@code /dev/urandom} whenever its buffer is older than 100
 * milliseconds.
 */
public final class OwnerTokens {

	private static final int TOKEN_BYTES = 16;

	private final SecureRandom random;

	/**
	 * Creates the tokens of one client, reading the seed of their generator now.
	 * @throws IllegalStateException if the JDK has no {@code DRBG} generator
	 */
	public OwnerTokens() {
		try {
			this.random = SecureRandom.getInstance("DRBG");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("The JDK offers no DRBG SecureRandom to make lock owner tokens", ex);
		}
		// The generator seeds itself on first use: that is now, on the caller's thread.
		this.random.nextBytes(new byte[1]);
	}

	/**
	 * Returns a new random id, for example to name the channel of one client.
	 * @return 64 random bits in hexadecimal
	 */
	public String clientId() {
		byte[] bytes = new byte[8];
		this.random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	/**
	 * Returns the owner token of a new acquisition.
	 * @return 128 random bits in hexadecimal
	 */
	public String next() {
		byte[] bytes = new byte[TOKEN_BYTES];
		this.random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}
