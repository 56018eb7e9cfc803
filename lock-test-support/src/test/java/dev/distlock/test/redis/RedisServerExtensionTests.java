package dev.distlock.test.redis;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisServerExtension}: the shared server is injected into
 * constructors, lifecycle methods and test methods.
 */
@ExtendWith(RedisServerExtension.class)
class RedisServerExtensionTests {

	private final RedisTestServer fromConstructor;

	private RedisTestServer fromBeforeEach;

	RedisServerExtensionTests(RedisTestServer redis) {
		this.fromConstructor = redis;
	}

	@BeforeEach
	void setUp(RedisTestServer redis) {
		this.fromBeforeEach = redis;
	}

	@Test
	void injectsTheSharedServerEverywhere(RedisTestServer redis) {
		assertThat(redis).isSameAs(RedisTestServers.shared())
			.isSameAs(this.fromConstructor)
			.isSameAs(this.fromBeforeEach);
		assertThat(RedisProbe.answersPing(redis.host(), redis.port())).isTrue();
	}

}
