package dev.distlock.redlock;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One of the RedLock Lua scripts, read once from
 * {@code src/main/resources/dev/distlock/redlock}, with its SHA1 for EVALSHA.
 *
 * @param name the file name
 * @param text the script
 * @param sha1 the SHA1 digest of the script, in hexadecimal
 */
record RedLockScript(String name, String text, String sha1) {

	static final RedLockScript ACQUIRE = load("acquire.lua");

	static final RedLockScript FENCE = load("fence.lua");

	static final RedLockScript RENEW = load("renew.lua");

	static final RedLockScript RELEASE = load("release.lua");

	private static RedLockScript load(String name) {
		try (InputStream in = RedLockScript.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalStateException("Missing script dev/distlock/redlock/" + name);
			}
			String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
			return new RedLockScript(name, text, HexFormat.of().formatHex(digest));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
