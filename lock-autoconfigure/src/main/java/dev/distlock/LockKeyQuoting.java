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

package dev.distlock;

/**
 * Quotes lock keys for exception messages and log lines, so that a key cannot forge or
 * flood them: it is put between single quotes, with quotes, backslashes, line breaks and
 * other control characters escaped, and cut after {@value #MAX_QUOTED} characters with a
 * note of its length.
 */
public final class LockKeyQuoting {

	/** How many characters of a key a message shows. */
	public static final int MAX_QUOTED = 200;

	private LockKeyQuoting() {
	}

	/**
	 * Quotes a key.
	 * @param key the key
	 * @return the key between single quotes, escaped, and shortened if it is long
	 */
	public static String quote(String key) {
		int shown = Math.min(key.length(), MAX_QUOTED);
		StringBuilder quoted = new StringBuilder(shown + 16).append('\'');
		for (int i = 0; i < shown; i++) {
			append(quoted, key.charAt(i));
		}
		quoted.append('\'');
		if (shown < key.length()) {
			quoted.append("... (").append(key.length()).append(" characters)");
		}
		return quoted.toString();
	}

	private static void append(StringBuilder quoted, char c) {
		switch (c) {
			case '\'', '\\' -> quoted.append('\\').append(c);
			case '\n' -> quoted.append("\\n");
			case '\r' -> quoted.append("\\r");
			case '\t' -> quoted.append("\\t");
			default -> {
				if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
					quoted.append(String.format("\\u%04x", (int) c));
				}
				else {
					quoted.append(c);
				}
			}
		}
	}

}
