package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An acquire or release whose outcome is unknown is resolved in the background, by the owner
 * token, once Redis answers again: the caller gets its exception at once, and the lock is not
 * stranded for its lease.
 */
class UnknownOutcomeTests {

	private static final LockOptions THIRTY_SECONDS = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static RedisServerProcess server;

	private LockFixture fixture;

	@BeforeAll
	static void startServer() {
		server = RedisServerProcess.startOnFreePort();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(server, Duration.ofSeconds(30));
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void acquireWhoseReplyCameTooLateIsUndone() {
		String key = TestRedis.uniqueKey("late-reply");
		// Redis holds writes for 3s: the acquire runs after the caller's 2s command timeout.
		this.fixture.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.execute("CLIENT", "PAUSE".getBytes(), "3000".getBytes(), "WRITE".getBytes());
			return null;
		});
		long start = System.nanoTime();
		assertThatExceptionOfType(LockUnavailableException.class)
			.isThrownBy(() -> this.fixture.client.tryLock(key, THIRTY_SECONDS));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one command timeout")
			.isLessThan(Duration.ofMillis(2_500));
		long answering = awaitAnswers();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(Duration.ofNanos(System.nanoTime() - answering)).as("undone soon after Redis answered, not after 30s")
			.isLessThan(Duration.ofSeconds(3));
		try (LockHandle handle = this.fixture.client.lock(key, THIRTY_SECONDS)) {
			assertThat(handle.fencingToken()).isPositive();
		}
	}

	@Test
	void releaseThatCouldNotReachRedisIsRetriedWhenRedisIsBack() {
		String key = TestRedis.uniqueKey("lost-release");
		LockHandle handle = this.fixture.client.lock(key, THIRTY_SECONDS);
		String token = this.fixture.redis.opsForValue().get(key);
		server.stop();
		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(handle::release);
		server.start();
		// As a restart from an AOF file (or a promoted replica) would: the key is back, with its
		// lease, before the client has reconnected.
		LettuceConnectionFactory restorer = TestRedis.connectionFactory(server);
		TestRedis.template(restorer).opsForValue().set(key, token, Duration.ofSeconds(30));
		restorer.destroy();
		long restored = System.nanoTime();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(Duration.ofNanos(System.nanoTime() - restored)).as("released by the retry, not by the 30s lease")
			.isLessThan(Duration.ofSeconds(2));
	}

	private long awaitAnswers() {
		await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
			.until(() -> "PONG".equals(this.fixture.redis.execute((RedisCallback<String>) (c) -> c.ping())));
		return System.nanoTime();
	}

}
