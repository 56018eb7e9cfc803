package dev.distlock.sample.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code --demo} mode end to end, with a smaller load: two instances, one Redis, one
 * database, and a consistent report.
 */
class DemoTests {

	@Test
	void demoUnderLoadReportsConsistentResults() throws Exception {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		DemoSettings settings = new DemoSettings(3, 50, 200, 120, 10, 16);
		DemoReport report = new DemoLauncher(settings, new PrintStream(output, true, StandardCharsets.UTF_8)).run();
		String printed = output.toString(StandardCharsets.UTF_8);
		assertThat(report.consistent()).as(printed).isTrue();
		assertThat(report.stock().sent()).isEqualTo(200);
		assertThat(report.stock().finalStock()).isEqualTo(report.stock().expectedFinalStock());
		assertThat(report.queue().sent()).isEqualTo(120);
		assertThat(report.queue().duplicates()).isZero();
		assertThat(report.queue().gaps()).isZero();
		assertThat(report.lockAcquisitions()).containsKeys("lock:sku", "lock:check-in");
		assertThat(printed).contains("=== distlock demo report ===", "RESULT: CONSISTENT (exit status 0)");
	}

}
