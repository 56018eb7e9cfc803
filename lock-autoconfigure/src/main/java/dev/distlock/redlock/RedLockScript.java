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
