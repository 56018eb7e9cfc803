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

package dev.distlock.test.redis;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DockerAvailability}.
 */
class DockerAvailabilityTests {

	@Test
	void noSignOfDockerMeansTestcontainersIsNotAsked() {
		assertThat(DockerAvailability.mayHaveDocker(Map.of(), "/home/dev", "Linux", (path) -> false)).isFalse();
	}

	@Test
	void dockerHostOrTestcontainersVariableMayMeanDocker() {
		assertThat(DockerAvailability.mayHaveDocker(Map.of("DOCKER_HOST", "tcp://docker:2375"), "/home/dev", "Linux",
				(path) -> false))
			.isTrue();
		assertThat(DockerAvailability.mayHaveDocker(Map.of("TESTCONTAINERS_DOCKER_CLIENT_STRATEGY", "x"), "/home/dev",
				"Linux", (path) -> false))
			.isTrue();
	}

	@Test
	void knownSocketOrConfigurationMayMeanDocker() {
		assertThat(DockerAvailability.mayHaveDocker(Map.of(), "/home/dev", "Linux",
				(path) -> path.equals(Path.of("/var/run/docker.sock"))))
			.isTrue();
		assertThat(DockerAvailability.mayHaveDocker(Map.of(), "/home/dev", "Mac OS X",
				(path) -> path.equals(Path.of("/home/dev/.docker"))))
			.isTrue();
		assertThat(DockerAvailability.mayHaveDocker(Map.of("XDG_RUNTIME_DIR", "/run/user/1000"), "/home/dev", "Linux",
				(path) -> path.equals(Path.of("/run/user/1000/docker.sock"))))
			.isTrue();
	}

	@Test
	void windowsAlwaysAsksTestcontainers() {
		assertThat(DockerAvailability.mayHaveDocker(Map.of(), "C:\\Users\\dev", "Windows 11", (path) -> false))
			.isTrue();
	}

	@Test
	void answerIsRemembered() {
		boolean first = DockerAvailability.isAvailable();
		long start = System.nanoTime();
		assertThat(DockerAvailability.isAvailable()).isEqualTo(first);
		assertThat(System.nanoTime() - start).isLessThan(50_000_000L);
	}

}
