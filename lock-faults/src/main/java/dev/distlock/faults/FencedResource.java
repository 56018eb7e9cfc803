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
 * The resource a lock protects, in a Redis of its own that no fault touches: an unfenced
 * counter (a read-modify-write with {@code GET} and {@code SET}, lost updates show
 * missing exclusion) and a fenced register that accepts a write only with a token greater
 * than any it saw before ({@code UPDATE ... WHERE fence < :token}, done atomically in
 * Lua). Readers of a read-write lock show their tokens too: a read raises the fence, so
 * that a writer whose lease ran out before the read cannot change what the reader read.
 */
public final class FencedResource implements AutoCloseable {

	private static final String FENCED_WRITE = """
			local fence = tonumber(redis.call('hget', KEYS[1], 'fence') or '0')
			if fence < tonumber(ARGV[1]) then
				redis.call('hset', KEYS[1], 'fence', ARGV[1], 'written', ARGV[1], 'value', ARGV[2])
				return 1
			end
			return 0""";

	private static final String FENCED_READ = """
			local fence = tonumber(redis.call('hget', KEYS[1], 'fence') or '0')
			if fence < tonumber(ARGV[1]) then
				redis.call('hset', KEYS[1], 'fence', ARGV[1])
			end
			return (tonumber(redis.call('hget', KEYS[1], 'written') or '0') < tonumber(ARGV[1])) and 1 or 0""";

	private final RespConnection connection;

	/**
	 * Connects to the resource's Redis.
	 * @param port its port
	 */
	public FencedResource(int port) {
		this.connection = Resp.connect(port);
	}

	/**
	 * Adds one to the counter by reading it and writing it back, two separate commands.
	 * @param counterKey the counter
	 */
	public void incrementUnfenced(String counterKey) {
		Long value = this.connection.number("GET", counterKey);
		this.connection.call("SET", counterKey, String.valueOf(((value != null) ? value : 0) + 1));
	}

	/**
	 * Writes a value if the token exceeds every token the register accepted before.
	 * @param registerKey the register
	 * @param token the writer's fencing token
	 * @param value what to write
	 * @return whether the write was accepted
	 */
	public boolean writeFenced(String registerKey, long token, String value) {
		Long accepted = this.connection.number("EVAL", FENCED_WRITE, "1", registerKey, String.valueOf(token), value);
		return accepted != null && accepted == 1;
	}

	/**
	 * Reads the register as a reader with the given token: raises its fence to the token,
	 * so that no write with a lower token is accepted from now on.
	 * @param registerKey the register
	 * @param token the reader's fencing token
	 * @return whether the token exceeds that of the last accepted write: {@code false}
	 * means a writer granted after this reader already wrote, so the reader's hold had
	 * lapsed
	 */
	public boolean readFenced(String registerKey, long token) {
		Long current = this.connection.number("EVAL", FENCED_READ, "1", registerKey, String.valueOf(token));
		return current != null && current == 1;
	}

	@Override
	public void close() {
		this.connection.close();
	}

}
