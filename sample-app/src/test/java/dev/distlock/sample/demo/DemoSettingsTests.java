package dev.distlock.sample.demo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The demo's {@code --demo.*} arguments.
 */
class DemoSettingsTests {

	@Test
	void defaultsSendAFewThousandRequests() {
		DemoSettings settings = DemoSettings.fromArguments(new String[] { "--demo" });
		assertThat(settings).isEqualTo(DemoSettings.defaults());
		assertThat(settings.requests()).isEqualTo(3500);
		assertThat(settings.decrements()).isGreaterThan(settings.skus() * settings.stockPerSku());
	}

	@Test
	void argumentsChangeSettings() {
		DemoSettings settings = DemoSettings.fromArguments(
				new String[] { "--demo", "--demo.check-ins=10", "--demo.concurrency=4", "--server.port=9000" });
		assertThat(settings.checkIns()).isEqualTo(10);
		assertThat(settings.concurrency()).isEqualTo(4);
		assertThat(settings.decrements()).isEqualTo(DemoSettings.defaults().decrements());
	}

	@Test
	void unknownOrInvalidArgumentsAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DemoSettings.fromArguments(new String[] { "--demo.speed=3" }))
			.withMessageContaining("--demo.speed");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DemoSettings.fromArguments(new String[] { "--demo.skus=0" }))
			.withMessageContaining("must be positive");
	}

}
