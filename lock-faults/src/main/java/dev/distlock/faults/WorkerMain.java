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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;

/**
 * A worker JVM: boots {@link FaultApplication} with the {@code name=value} properties
 * given as arguments, replies {@code ready <pid>}, then obeys one command per line on
 * standard input:
 * <ul>
 * <li>{@code hold <id> <key>[,<key>...] <leaseMs|renew> <holdMs|-1> <waitMs> [<lock>]}:
 * see {@link HoldCommand} and, for the locks, {@link WorkerLock};</li>
 * <li>{@code release <id>}: ends a hold started with {@code holdMs = -1};</li>
 * <li>{@code write <id> <resourcePort>}, {@code read <id> <resourcePort>}: a hold's
 * fenced write or read ({@link HoldCommand});</li>
 * <li>{@code write-unfenced <id> <resourcePort>}: a hold's write with no token
 * ({@link HoldCommand});</li>
 * <li>{@code contend <id> <lock> <key>[,<key>...] <threads> <durationMs> <leaseMs|renew> <bodyMs> <resourcePort> <file>}:
 * see {@link ContendCommand};</li>
 * <li>{@code fenced-hold}, {@code fenced-write}, {@code fenced-release}: a hold with a
 * fixed lease and writes of the data it protects, fenced or not, to PostgreSQL and Redis
 * (see {@link FencedWriteCommand});</li>
 * <li>{@code quit}.</li>
 * </ul>
 * It also replies {@code waiting <key>} when a caller's first attempt found the key held.
 * Replies are lines starting with {@value Replies#PREFIX}; hold intervals use
 * {@link System#nanoTime()}, one clock for all the JVMs of a host.
 */
public final class WorkerMain {

	private WorkerMain() {
	}

	/**
	 * Runs the worker.
	 * @param args the application's properties
	 * @throws Exception if reading commands fails
	 */
	public static void main(String[] args) throws Exception {
		List<String> properties = new ArrayList<>(Arrays.asList(args));
		properties.add("faults.worker=true");
		try (ConfigurableApplicationContext context = FaultApplication.start(properties)) {
			LockClient client = context.getBean(LockClient.class);
			// Connect now, so that the first command of a scenario does not pay for it.
			context.getBean(StringRedisTemplate.class).hasKey("faults:warm-up");
			HoldCommand holds = new HoldCommand(client, context.getBean(StringRedisTemplate.class));
			ContendCommand contention = new ContendCommand(client, context);
			FencedWriteCommand fencedWrites = new FencedWriteCommand(client);
			Replies.send("ready " + ProcessHandle.current().pid());
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = commands.readLine()) != null && !line.equals("quit")) {
				String[] command = line.trim().split(" ");
				try {
					switch (command[0]) {
						case "hold" -> holds.start(command);
						case "release" -> holds.release(command[1]);
						case "write" -> holds.write(command[1], Integer.parseInt(command[2]));
						case "write-unfenced" -> holds.writeUnfenced(command[1], Integer.parseInt(command[2]));
						case "read" -> holds.read(command[1], Integer.parseInt(command[2]));
						case "contend" -> contention.start(command);
						case "fenced-hold" -> fencedWrites.hold(command);
						case "fenced-write" -> fencedWrites.write(command);
						case "fenced-release" -> fencedWrites.release(command[1]);
						default -> Replies.send("error - unknown command " + line);
					}
				}
				catch (RuntimeException ex) {
					Replies.send("error " + command[1] + " " + Replies.describe(ex));
				}
			}
		}
		System.exit(0);
	}

}
