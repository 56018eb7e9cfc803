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
