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
