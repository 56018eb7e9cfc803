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

import org.jspecify.annotations.Nullable;

/**
 * One connection to a {@link RedisNode} for many commands, opened again after a failure
 * (the node was killed): a scenario that asks often opens no connection per command, so
 * it takes no local ports that a restarted node may need.
 */
final class NodeConnection implements AutoCloseable {

	private final RedisNode node;

	private @Nullable RespConnection connection;

	NodeConnection(RedisNode node) {
		this.node = node;
	}

	/**
	 * Sends a command.
	 * @param args the command and its arguments
	 * @return the reply, or null if the node did not answer (or answered with an error)
	 */
	@Nullable Object call(String... args) {
		try {
			if (this.connection == null) {
				this.connection = Resp.connect(this.node.port());
			}
			return this.connection.call(args);
		}
		catch (RuntimeException ex) {
			close();
			return null;
		}
	}

	@Override
	public void close() {
		if (this.connection != null) {
			this.connection.close();
			this.connection = null;
		}
	}

}
