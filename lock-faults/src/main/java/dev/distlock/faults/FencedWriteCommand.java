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

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.fencing.FencedJdbc;
import dev.distlock.fencing.FencedRedis;
import dev.distlock.fencing.FencedWriteListener;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Kleppmann's case, the worker's side: a hold with a fixed lease, and writes of the data
 * it protects made under it, fenced or not, each on a thread of its own (a write may be
 * held back by a {@link FaultProxy} for seconds).
 * <ul>
 * <li>{@code fenced-hold <id> <key> <leaseMs> <waitMs>}: takes the lock through the
 * {@link LockClient} and replies {@code acquired <id> <token>};</li>
 * <li>{@code fenced-write <id> <fenced|plain> jdbc <jdbcUrl>
 *
<table>
 *  <rowId> <value>}: sets the row's {@code val} through {@link FencedJdbc} under the
 * hold, or with a plain {@code UPDATE};</li>
 * <li>{@code fenced-write <id> <fenced|plain> redis <port> <key> <value>}: sets the key
 * through {@link FencedRedis} under the hold, or with a plain {@code SET};</li>
 * <li>{@code fenced-release <id>}: releases the hold.</li>
 * </ul>
 * A write replies {@code wrote <id> <store> ok}, or
 * {@code wrote <id> <store> refused <exception> token=<n> stored=<n>} when the store
 * refused it as stale, or {@code wrote <id> <store> failed <exception> <message>}.
 */
final class FencedWriteCommand {

	private final LockClient client;

	private final Map<String, LockHandle> holds = new ConcurrentHashMap<>();

	FencedWriteCommand(LockClient client) {
		this.client = client;
	}

	void hold(String[] command) {
		String id = command[1];
		LockOptions options = new LockOptions(Duration.ofMillis(Long.parseLong(command[4])),
				Duration.ofMillis(Long.parseLong(command[3])), Duration.ZERO);
		new Thread(() -> {
			try {
				LockHandle handle = this.client.lock(command[2], options);
				this.holds.put(id, handle);
				Replies.send("acquired " + id + " " + handle.fencingToken());
			}
			catch (RuntimeException ex) {
				Replies.send("error " + id + " " + ex.getClass().getSimpleName() + " " + Replies.describe(ex));
			}
		}, "fenced-hold-" + id).start();
	}

	void write(String[] command) {
		String id = command[1];
		LockHandle handle = this.holds.get(id);
		if (handle == null) {
			throw new IllegalStateException("no hold " + id + ": send fenced-hold first");
		}
		boolean fenced = command[2].equals("fenced");
		String store = command[3];
		new Thread(() -> {
			try {
				if (store.equals("jdbc")) {
					writeRow(handle, fenced, command[4], command[5], Long.parseLong(command[6]), command[7]);
				}
				else {
					writeKey(handle, fenced, Integer.parseInt(command[4]), command[5], command[6]);
				}
				Replies.send("wrote " + id + " " + store + " ok");
			}
			catch (StaleFencingTokenException ex) {
				Replies.send("wrote " + id + " " + store + " refused " + ex.getClass().getSimpleName() + " token="
						+ ex.getFencingToken() + " stored=" + ex.getStoredFencingToken());
			}
			catch (RuntimeException ex) {
				Replies.send("wrote " + id + " " + store + " failed " + ex.getClass().getSimpleName() + " "
						+ Replies.describe(ex));
			}
		}, "fenced-write-" + id).start();
	}

	void release(String id) {
		LockHandle handle = this.holds.remove(id);
		if (handle != null) {
			boolean leaseLost = handle.isLeaseLost();
			String outcome = "ok";
			try {
				handle.release();
			}
			catch (RuntimeException ex) {
				outcome = ex.getClass().getSimpleName();
			}
			Replies.send("released " + id + " leaseLost=" + leaseLost + " " + outcome);
		}
	}

	private static void writeRow(LockHandle handle, boolean fenced, String url, String table, long rowId,
			String value) {
		JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url));
		if (fenced) {
			new FencedJdbc(jdbc, FencedWriteListener.NONE).under(handle)
				.update(table)
				.set("val", value)
				.where("id", rowId)
				.execute();
		}
		else {
			jdbc.update("update " + table + " set val = ? where id = ?", value, rowId);
		}
	}

	private static void writeKey(LockHandle handle, boolean fenced, int port, String key, String value) {
		LettuceConnectionFactory connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		connections.afterPropertiesSet();
		connections.start();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(connections);
			if (fenced) {
				new FencedRedis(redis, FencedWriteListener.NONE).under(handle).set(key, value);
			}
			else {
				redis.opsForValue().set(key, value);
			}
		}
		finally {
			connections.destroy();
		}
	}

}
