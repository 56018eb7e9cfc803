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
 * Writes a worker JVM's replies to its standard output, one line each, prefixed with
 * {@link #PREFIX} so that the parent can tell them from log output.
 */
final class Replies {

	static final String PREFIX = "@w ";

	private Replies() {
	}

	static void send(String reply) {
		synchronized (System.out) {
			System.out.println(PREFIX + reply);
			System.out.flush();
		}
	}

	static String describe(Throwable ex) {
		String message = String.valueOf(ex.getMessage()).replace('\n', ' ');
		return ex.getClass().getSimpleName() + " " + message;
	}

}
