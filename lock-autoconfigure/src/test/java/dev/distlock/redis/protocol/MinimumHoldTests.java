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

package dev.distlock.redis.protocol;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a release asks Redis to keep: never less than what is left of the minimum hold,
 * nothing once it has passed.
 */
class MinimumHoldTests {

	@Test
	void remainingTimeIsRoundedUpToTheMillisecond() {
		MinimumHold hold = new MinimumHold(System.nanoTime() + 1_500_001);
		assertThat(hold.remainingMillis()).isBetween(1L, 2L);
		assertThat(new MinimumHold(System.nanoTime() + Duration.ofSeconds(5).toNanos() + 1).remainingMillis())
			.isBetween(4_990L, 5_000L);
	}

	@Test
	void countsFromTheGrant() {
		long grantedTwoSecondsAgo = System.nanoTime() - Duration.ofSeconds(2).toNanos();
		assertThat(MinimumHold.from(grantedTwoSecondsAgo, Duration.ofSeconds(10)).remainingMillis()).isBetween(7_990L,
				8_000L);
		assertThat(MinimumHold.from(grantedTwoSecondsAgo, Duration.ofSeconds(1)).remainingMillis()).isZero();
	}

	@Test
	void noMinimumHoldKeepsNothing() {
		assertThat(MinimumHold.NONE.remainingMillis()).isZero();
		assertThat(MinimumHold.from(System.nanoTime(), Duration.ZERO).remainingMillis()).isZero();
	}

	@Test
	void aMinimumHoldTooLongToCountStillEndsInTheFuture() {
		assertThat(MinimumHold.from(System.nanoTime(), ChronoUnit.FOREVER.getDuration()).remainingMillis())
			.isGreaterThan(Duration.ofDays(365 * 70).toMillis());
	}

}
