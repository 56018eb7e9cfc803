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

package dev.distlock.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * A worker JVM of the hand-over scenario ({@link HandOverBench}): one thread that takes
 * one lock again and again, on command:
 * {@code block <contender> <lockKey> <startNanos> <holds> <holdNanos> <pauseNanos> <file>}.
 * It starts at {@code startNanos} ({@link System#nanoTime} is {@code CLOCK_MONOTONIC},
 * the same clock in every process of the host), holds the lock for {@code holdNanos},
 * releases it, waits {@code pauseNanos} (so that its next attempt, which queues it behind
 * the other worker, does not run during the hand-over it just made) and takes it again,
 * {@code holds} times. Each hold is written to the file as one line of {@link #FIELDS}:
 * when the section started (its first line), when the release was called (the section's
 * last line) and when it returned, and the hand-over's stages as the distlock build on
 * the class path stamped them, if it has {@code dev.distlock.redis.HandOverStamps} (a
 * build made for the timeline; 0 without).
 */
public final class HandOverWorker {

	/** The fields of one hold, in the order written. */
	static final List<String> FIELDS = List.of("acquired", "releaseCalled", "releaseReturned", "releaseSent",
			"releaseReplied", "messageReceived", "dispatched", "waiterRunning", "granted", "registered",
			"releaseForgotten");

	/** The stamps a timeline build keeps of the receiving side of a hand-over. */
	private static final List<String> RECEIVER_STAMPS = List.of("messageReceived", "dispatched", "waiterRunning",
			"granted", "registered");

	/** The stamps a timeline build keeps of the releasing side of a hand-over. */
	private static final List<String> RELEASER_STAMPS = List.of("releaseSent", "releaseReplied", "releaseForgotten");

	private HandOverWorker() {
	}

	/**
	 * Runs the worker.
	 * @param args the Redis server ({@link RedisTarget#argument()}) and the contenders to
	 * create, separated by commas
	 * @throws Exception on failure, after replying with an error
	 */
	public static void main(String[] args) throws Exception {
		RedisTarget target = RedisTarget.parse(args[0]);
		Stamps stamps = Stamps.find();
		try (ContenderSet set = new ContenderSet(target, Set.of(args[1].split(",")), false)) {
			ForkedJvm.reply("ready " + (stamps != null));
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = commands.readLine()) != null && !line.equals("quit")) {
				try {
					long compiling = compilationMillis();
					int holds = runBlock(set, stamps, line.split(" "));
					ForkedJvm.reply("done " + holds + " " + (compilationMillis() - compiling));
				}
				catch (Exception ex) {
					ForkedJvm.reply("ERROR " + ex);
					throw ex;
				}
			}
		}
		System.exit(0);
	}

	/**
	 * How long this JVM's JIT compilers have worked so far, in ms: a worker still busy
	 * compiling takes CPU from the hand-overs it measures.
	 */
	private static long compilationMillis() {
		CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
		return (compilation != null && compilation.isCompilationTimeMonitoringSupported())
				? compilation.getTotalCompilationTime() : 0;
	}

	private static int runBlock(ContenderSet set, @Nullable Stamps stamps, String[] command) throws Exception {
		Contender contender = set.get(command[1]);
		String lockKey = command[2];
		long start = Long.parseLong(command[3]);
		int holds = Integer.parseInt(command[4]);
		long holdNanos = Long.parseLong(command[5]);
		long pauseNanos = Long.parseLong(command[6]);
		HoldFields recorded = new HoldFields(FIELDS.size());
		long[] hold = new long[FIELDS.size()];
		ContendedWorker.parkUntil(start);
		for (int i = 0; i < holds; i++) {
			if (stamps != null) {
				stamps.clear();
			}
			contender.runLocked(lockKey, () -> {
				hold[0] = System.nanoTime();
				if (stamps != null) {
					stamps.read(RECEIVER_STAMPS, hold);
					stamps.clear();
				}
				ContendedWorker.parkUntil(hold[0] + holdNanos);
				hold[1] = System.nanoTime();
			});
			hold[2] = System.nanoTime();
			if (stamps != null) {
				stamps.read(RELEASER_STAMPS, hold);
			}
			recorded.add(hold.clone());
			ContendedWorker.parkUntil(hold[2] + pauseNanos);
		}
		long[] fields = recorded.toArray();
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(command[7])))) {
			for (int i = 0; i < fields.length; i += FIELDS.size()) {
				StringBuilder row = new StringBuilder();
				for (int f = 0; f < FIELDS.size(); f++) {
					row.append((f > 0) ? " " : "").append(fields[i + f]);
				}
				out.println(row);
			}
		}
		return holds;
	}

	/**
	 * The static fields of {@code dev.distlock.redis.HandOverStamps} in a timeline build:
	 * each the {@link System#nanoTime} of the last time the lock path passed a stage (a
	 * field the build does not have reads as 0).
	 */
	private static final class Stamps {

		private final Map<String, Field> fields = new HashMap<>();

		static @Nullable Stamps find() {
			Class<?> type;
			try {
				type = Class.forName("dev.distlock.redis.HandOverStamps");
			}
			catch (ClassNotFoundException ex) {
				return null;
			}
			Stamps stamps = new Stamps();
			for (String name : FIELDS) {
				try {
					stamps.fields.put(name, type.getField(name));
				}
				catch (NoSuchFieldException ex) {
					// An earlier timeline build.
				}
			}
			return stamps;
		}

		void clear() {
			try {
				for (Field field : this.fields.values()) {
					field.setLong(null, 0);
				}
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		}

		/**
		 * Reads the named stamps into a hold's fields, at their places in
		 * {@link #FIELDS}.
		 */
		void read(List<String> names, long[] into) {
			try {
				for (String name : names) {
					Field field = this.fields.get(name);
					into[FIELDS.indexOf(name)] = (field != null) ? field.getLong(null) : 0;
				}
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
