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

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The release of an exclusive lock that nobody waits for: a delete of the lock's key only
 * if it holds the owner token. On a server that has one, it is the server's own command,
 * Redis 8.4's {@code DELEX key IFEQ value} or Valkey 9's {@code DELIFEQ key value}, with
 * no script; on any other, {@code delete-if-equal.lua}, a script that reads and deletes
 * the key and nothing else. While anyone waits, the lock's value carries the queued mark
 * ({@code acquire.lua}), neither deletes anything, and the release script hands the lock
 * over instead.
 * <p>
 * Which command the server has is found by trying each on a key of distlock's namespace
 * that does not exist ({@link #probe}), once, in the background when the client starts or
 * at the first release after a probe that got no answer; until then, and on a server that
 * has neither (Redis before 8.4, Valkey before 9, a user the ACL does not allow them),
 * releases run {@code delete-if-equal.lua}. A server that later refuses the command (a
 * node of an older version, a changed ACL) turns it off for the client, and the release
 * that met the refusal runs the release script.
 */
final class ConditionalDelete {

	private static final Log logger = LogFactory.getLog(ConditionalDelete.class);

	/** The commands, in the order they are tried. */
	enum Command {

		/** Redis 8.4 and later: {@code DELEX key IFEQ value}. */
		DELEX,

		/** Valkey 9 and later: {@code DELIFEQ key value}. */
		DELIFEQ;

		byte[][] arguments(String key, String value) {
			byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
			byte[] valueBytes = value.getBytes(StandardCharsets.UTF_8);
			return (this == DELEX) ? new byte[][] { keyBytes, "IFEQ".getBytes(StandardCharsets.US_ASCII), valueBytes }
					: new byte[][] { keyBytes, valueBytes };
		}

	}

	private final StringRedisTemplate redis;

	private final LockScriptExecutor scripts;

	/** The command the server has, null if none or not yet known. */
	private volatile @Nullable Command command;

	/** Whether the server answered a probe; until then releases run the script. */
	private volatile boolean probed;

	private final AtomicBoolean probing = new AtomicBoolean();

	ConditionalDelete(StringRedisTemplate redis, LockScriptExecutor scripts) {
		this.redis = redis;
		this.scripts = scripts;
	}

	/**
	 * Deletes the key if it holds the value: with the server's own command where it has
	 * one ({@link #command}), else with {@code delete-if-equal.lua}.
	 * @param probeKey a key of distlock's namespace that does not exist, for the probe
	 * @return whether it deleted it, or null if the server refused its own command: the
	 * command is turned off, and the caller runs the release script
	 * @throws DataAccessException if the server did not answer
	 */
	@Nullable Boolean delete(String key, String value, String probeKey) {
		Command command = command(probeKey);
		if (command != null) {
			return delete(command, key, value);
		}
		Long deleted = this.scripts.execute(LockScripts.DELETE_IF_EQUAL, List.of(key), value);
		return deleted != null && deleted == 1;
	}

	/**
	 * Returns the command the server has, null if it has none or has not answered a probe
	 * yet; starts a probe in the background if none answered yet.
	 * @param probeKey a key of distlock's namespace that does not exist, for the probe
	 */
	@Nullable Command command(String probeKey) {
		if (!this.probed) {
			probeInBackground(probeKey);
		}
		return this.command;
	}

	/** Returns whether the server answered a probe. */
	boolean isProbed() {
		return this.probed;
	}

	/** Probes the server on a thread of its own, unless a probe runs or answered. */
	void probeInBackground(String probeKey) {
		if (!this.probed && this.probing.compareAndSet(false, true)) {
			DaemonThreads.named("distlock-conditional-delete-probe").newThread(() -> {
				try {
					probe(probeKey);
				}
				finally {
					this.probing.set(false);
				}
			}).start();
		}
	}

	/**
	 * Tries each command on the key, which must not exist, and keeps the first that the
	 * server runs. Leaves the choice open if the server does not answer or the connection
	 * factory is stopped.
	 * @param probeKey a key of distlock's namespace that does not exist
	 */
	void probe(String probeKey) {
		try {
			Command found = null;
			for (Command candidate : Command.values()) {
				if (runs(candidate, probeKey)) {
					found = candidate;
					break;
				}
			}
			this.command = found;
			this.probed = true;
			logger.debug((found != null) ? "Releases of exclusive locks that nobody waits for use " + found
					: "Redis has no native conditional delete (DELEX ... IFEQ, DELIFEQ): releases of exclusive "
							+ "locks that nobody waits for run delete-if-equal.lua");
		}
		catch (RuntimeException ex) {
			// No answer, or the connection factory stopped under the probe (the context
			// closes): the next release probes again.
			logger.debug("Could not probe Redis for a native conditional delete; releases run delete-if-equal.lua", ex);
		}
	}

	private boolean runs(Command candidate, String probeKey) {
		try {
			send(candidate, probeKey, "distlock-probe");
			return true;
		}
		catch (DataAccessException ex) {
			if (refused(ex)) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * Deletes the key if it holds the value, with the command the server has.
	 * @param command the command the probe found
	 * @return whether it deleted it, or null if the server refused the command: it is
	 * turned off, and the caller runs the release script
	 * @throws DataAccessException if the server did not answer
	 */
	@Nullable Boolean delete(Command command, String key, String value) {
		try {
			return send(command, key, value) == 1;
		}
		catch (DataAccessException ex) {
			if (!refused(ex)) {
				throw ex;
			}
			this.command = null;
			logger.info("Redis refused " + command + " (" + ex.getMostSpecificCause().getMessage()
					+ "); releases of exclusive locks run delete-if-equal.lua from now on");
			return null;
		}
	}

	private long send(Command command, String key, String value) {
		byte[][] args = command.arguments(key, value);
		// The template's own connection, not its proxy (see IntegerCommand).
		Object reply = this.redis.execute(
				(RedisCallback<Object>) (connection) -> IntegerCommand.send(connection, command.name(), args), true);
		if (!(reply instanceof Number deleted)) {
			throw new IllegalStateException("Unexpected reply of " + command + ": " + reply);
		}
		return deleted.longValue();
	}

	/**
	 * Returns whether the server refused the command itself, rather than failing to
	 * answer: unknown, wrong syntax (a command of that name that means something else),
	 * or not permitted.
	 */
	private static boolean refused(DataAccessException ex) {
		String message = String.valueOf(ex.getMostSpecificCause().getMessage()).toLowerCase(Locale.ROOT);
		return message.contains("unknown command") || message.contains("syntax error")
				|| message.contains("wrong number of arguments") || message.contains("noperm");
	}

}
