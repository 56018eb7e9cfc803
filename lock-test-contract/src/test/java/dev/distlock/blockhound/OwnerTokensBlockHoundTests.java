package dev.distlock.blockhound;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import dev.distlock.redis.protocol.OwnerTokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Owner tokens are made for every reactive acquisition, on whatever thread subscribes it:
 * a Lettuce event loop or Reactor's timer. Making one must not read a file (the
 * platform's default {@code SecureRandom} refills its buffer from {@code /dev/urandom}
 * when it is older than 100 milliseconds).
 */
class OwnerTokensBlockHoundTests {

	@AfterEach
	void noBlockingCalls() {
		assertThat(RecordedBlockingCalls.drain()).as("blocking calls on non-blocking threads").isEmpty();
	}

	@Test
	void tokensAreMadeOnANonBlockingThreadWithoutBlocking() {
		OwnerTokens tokens = new OwnerTokens();
		// Spaced beyond the 100 ms after which the default SecureRandom reads again.
		Flux<String> made = Flux.interval(Duration.ofMillis(150)).take(3).map((tick) -> tokens.next());
		StepVerifier.create(made.collectList())
			.assertNext((three) -> assertThat(three).doesNotHaveDuplicates()
				.allSatisfy((token) -> assertThat(token).hasSize(32)))
			.expectComplete()
			.verify(Duration.ofSeconds(10));
	}

}
