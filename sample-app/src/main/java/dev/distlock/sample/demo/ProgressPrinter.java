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

package dev.distlock.sample.demo;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * Prints how many requests have completed, once a second, until closed.
 */
final class ProgressPrinter implements AutoCloseable {

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "demo-progress");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Starts printing.
	 * @param out where to print
	 * @param completed how many requests have completed
	 * @param total how many requests there are
	 */
	ProgressPrinter(PrintStream out, IntSupplier completed, int total) {
		this.scheduler.scheduleAtFixedRate(() -> {
			int done = completed.getAsInt();
			out.printf("  %5d / %d requests (%3d%%)%n", done, total, (int) (100L * done / total));
		}, 1, 1, TimeUnit.SECONDS);
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

}
