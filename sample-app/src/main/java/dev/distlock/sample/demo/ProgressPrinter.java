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
