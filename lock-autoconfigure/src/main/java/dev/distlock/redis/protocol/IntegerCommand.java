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

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.util.ClassUtils;

/**
 * Sends a command whose reply is an integer and that Spring Data Redis has no method for,
 * such as {@code WAIT} for replicas (until they acknowledge the writes of the connection,
 * not waiting for a lock) or a native conditional delete ({@link ConditionalDelete}), on
 * a connection (the template's own, not its close-suppressing proxy). Spring Data Redis
 * sends a command it does not know with Lettuce as one that returns bytes, which cannot
 * hold an integer reply; a Lettuce connection is told the output to use instead. Loaded
 * only if Lettuce is present.
 */
final class IntegerCommand {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			IntegerCommand.class.getClassLoader());

	private IntegerCommand() {
	}

	/**
	 * Sends the command on the connection.
	 * @param connection the template's own connection
	 * @param command the command's name
	 * @param args its arguments
	 * @return the reply
	 */
	static Object send(RedisConnection connection, String command, byte[]... args) {
		if (LETTUCE_PRESENT && isLettuce(connection)) {
			return Lettuce.send(connection, command, args);
		}
		return connection.execute(command, args);
	}

	private static boolean isLettuce(RedisConnection connection) {
		return connection instanceof LettuceConnection;
	}

	/** The Lettuce part, in a class of its own so that it loads only with Lettuce. */
	private static final class Lettuce {

		static Object send(RedisConnection connection, String command, byte[]... args) {
			return ((LettuceConnection) connection).execute(command, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
					args);
		}

	}

}
