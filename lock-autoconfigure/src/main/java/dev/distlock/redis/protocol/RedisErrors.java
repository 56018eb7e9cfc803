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

import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockMisconfigurationException;

/**
 * Tells errors that mean misconfiguration from errors that mean Redis is unavailable, by
 * the error reply Redis sent (found anywhere in the cause chain, so that it works for any
 * client library and for errors met while connecting), and says what to fix.
 */
public final class RedisErrors {

	private static final String NOPERM_FIX = "The Redis user lacks a permission distlock needs: grant it the keys "
			+ "and channels under distlock.key-prefix and the commands of the lock scripts, as distlock's "
			+ "docs/configuration.md#keys-channels-and-redis-acl shows.";

	private static final String UNKNOWN_COMMAND_FIX = "Redis does not offer a command distlock needs (a managed "
			+ "Redis that renames or disables commands?): allow the commands that distlock's "
			+ "docs/configuration.md#keys-channels-and-redis-acl lists.";

	/**
	 * The beginnings of Redis's error replies that mean misconfiguration (matched without
	 * regard to case), and what to fix.
	 */
	private static final Map<String, String> FIXES = Map.ofEntries(Map.entry("NOPERM", NOPERM_FIX),
			// A command inside a script that the user may not run, or a channel it may
			// not publish on: Redis 7.0 and 7.2 or later (and Valkey) word it apart.
			Map.entry("ERR The user executing the script", NOPERM_FIX),
			Map.entry("ERR ACL failure in script", NOPERM_FIX),
			Map.entry("NOAUTH",
					"Redis requires authentication: set spring.data.redis.username and spring.data.redis.password."),
			Map.entry("WRONGPASS",
					"Redis rejected the credentials: check spring.data.redis.username and spring.data.redis.password."),
			// A key used as two kinds of lock (distlock's own error, from its scripts).
			Map.entry("LOCKKIND",
					"A key is one kind of lock only: every use of it must ask for the same kind "
							+ "(an exclusive lock, a read-write lock, or a semaphore with the same number of permits); "
							+ "give the other use a key of its own."),
			Map.entry("WRONGTYPE",
					"A key distlock uses holds a value of another type: something else writes to the lock "
							+ "key or to distlock's own keys (<prefix>distlock:*); keep other data out of them, for "
							+ "example with a distlock.key-prefix of their own."),
			// Outside a script, and inside one ("ERR Unknown Redis command called from
			// script").
			Map.entry("ERR unknown command", UNKNOWN_COMMAND_FIX),
			Map.entry("ERR unknown Redis command", UNKNOWN_COMMAND_FIX),
			Map.entry("ERR user_script", "Redis failed to run a distlock script: report this with the Redis version."),
			Map.entry("ERR Error running script",
					"Redis failed to run a distlock script: report this with the Redis version."),
			Map.entry("ERR Error compiling script",
					"Redis could not compile a distlock script: report this with the Redis version."));

	private RedisErrors() {
	}

	/**
	 * Returns what to fix if the failure is a misconfiguration.
	 * @param failure the client's exception
	 * @return the fix, or {@code null} if the failure means Redis is unavailable
	 */
	static @Nullable String fix(Throwable failure) {
		Map.Entry<String, String> found = find(failure);
		return (found != null) ? found.getValue() : null;
	}

	/**
	 * Returns the exception for a misconfiguration, quoting the error Redis replied with,
	 * or {@code null} if the failure means Redis is unavailable.
	 */
	public static @Nullable LockMisconfigurationException misconfiguration(String key, String operation,
			Throwable failure) {
		Map.Entry<String, String> found = find(failure);
		return (found != null)
				? new LockMisconfigurationException(key, operation, found.getKey(), found.getValue(), failure) : null;
	}

	/**
	 * Finds Redis's error reply in the cause chain, or among the exceptions suppressed
	 * along it (a wrapper may also quote it after its own class name): the reply and what
	 * to fix.
	 */
	private static Map.@Nullable Entry<String, String> find(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			Map.Entry<String, String> found = match(cause.getMessage());
			for (int i = 0; found == null && i < cause.getSuppressed().length; i++) {
				found = match(cause.getSuppressed()[i].getMessage());
			}
			if (found != null) {
				return found;
			}
		}
		return null;
	}

	private static Map.@Nullable Entry<String, String> match(@Nullable String message) {
		if (message != null) {
			for (Map.Entry<String, String> fix : FIXES.entrySet()) {
				int at = startsAt(message, fix.getKey());
				if (at >= 0) {
					return Map.entry(message.substring(at), fix.getValue());
				}
			}
		}
		return null;
	}

	/**
	 * Where the reply starts in the message: at its beginning, or after a wrapper's
	 * {@code ": "}; -1 if it is not there.
	 */
	private static int startsAt(String message, String reply) {
		if (message.regionMatches(true, 0, reply, 0, reply.length())) {
			return 0;
		}
		String lower = message.toLowerCase(Locale.ROOT);
		int at = lower.indexOf(": " + reply.toLowerCase(Locale.ROOT));
		return (at >= 0) ? at + 2 : -1;
	}

}
