package dev.distlock;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.distlock.memory.InMemoryLockClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link LockContext#fencingToken(String)} answers from the innermost lock of the thread
 * that holds the key, and says clearly when none holds it.
 */
class LockContextKeysTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private final InMemoryLockClient client = InMemoryLockClient.builder().build();

	@Test
	void answersFromTheInnermostLockHoldingTheKey() {
		try (LockHandle outer = this.client.lock("outer", NO_WAIT);
				LockContext.Scope outerScope = LockContext.enter(outer);
				LockHandle both = this.client.lock(List.of("a", "b"), NO_WAIT);
				LockContext.Scope innerScope = LockContext.enter(both)) {
			assertThat(LockContext.fencingToken("a")).isEqualTo(both.fencingToken("a"));
			assertThat(LockContext.fencingToken("b")).isEqualTo(both.fencingToken("b"));
			assertThat(LockContext.fencingToken("outer")).isEqualTo(outer.fencingToken());
			assertThatIllegalArgumentException().isThrownBy(() -> LockContext.fencingToken("c"))
				.withMessageContaining("'c'")
				.withMessageContaining("'a', 'b', 'outer'");
		}
	}

	@Test
	void outsideALockedMethodItSaysSo() {
		assertThatIllegalStateException().isThrownBy(() -> LockContext.fencingToken("a"))
			.withMessageContaining("No distributed lock is held on this thread");
	}

}
