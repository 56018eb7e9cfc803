package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters are woken by the release message, one at a time per key in a JVM; a lost message
 * only delays them until the holder's lease ends; without a subscription they back off.
 */
class ReleaseMessageWaitingTests {

	private static final LockOptions WAIT_LONG = new LockOptions(Duration.ofSeconds(30), Duration.ofSeconds(30));

	private LockFixture holderSide;

	private LockFixture waiterSide;

	@BeforeEach
	void start() {
		this.holderSide = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
		this.waiterSide = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
	}

	@AfterEach
	void stop() {
		this.holderSide.close();
		this.waiterSide.close();
	}

	@Test
	void releaseWakesTheWaiterOfAnotherClient() {
		String key = TestRedis.uniqueKey("wake");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
			.supplyAsync(() -> this.waiterSide.client.tryLock(key, WAIT_LONG));
		await().until(() -> this.waiterSide.waiter.waiting() == 1);
		long wakeUps = this.waiterSide.waiter.wakeUps();
		held.release();
		Optional<LockHandle> acquired = waiting.join();
		assertThat(acquired).isPresent();
		assertThat(this.waiterSide.waiter.wakeUps() - wakeUps).as("woken by the release message").isEqualTo(1);
		acquired.get().release();
	}

	@Test
	void waitersOfOneJvmAreWokenOneAtATime() {
		String key = TestRedis.uniqueKey("one-at-a-time");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		AtomicInteger acquired = new AtomicInteger();
		List<CompletableFuture<LockHandle>> waiters = List.of(waitFor(key, acquired), waitFor(key, acquired),
				waitFor(key, acquired));
		await().until(() -> this.waiterSide.waiter.waiting() == 3);
		long wakeUps = this.waiterSide.waiter.wakeUps();
		held.release();
		await().until(() -> acquired.get() == 1);
		assertThat(this.waiterSide.waiter.waiting()).as("the others still wait").isEqualTo(2);
		assertThat(this.waiterSide.waiter.wakeUps() - wakeUps).as("only one was woken").isEqualTo(1);
		LockHandle first = waiters.stream().filter(CompletableFuture::isDone).findFirst().get().join();
		first.release();
		await().until(() -> acquired.get() == 2);
		waiters.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).filter((h) -> !h.isReleased())
			.forEach(LockHandle::release);
		await().until(() -> acquired.get() == 3);
		waiters.forEach((waiter) -> {
			LockHandle handle = waiter.join();
			if (!handle.isReleased()) {
				handle.release();
			}
		});
	}

	@Test
	void lockThatExpiresWithoutAReleaseMessageStillHandsOver() {
		String key = TestRedis.uniqueKey("expired");
		this.holderSide.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(300)));
		long wakeUps = this.waiterSide.waiter.wakeUps();
		Optional<LockHandle> acquired = this.waiterSide.client.tryLock(key, WAIT_LONG);
		assertThat(acquired).as("acquired once the holder's lease ran out").isPresent();
		assertThat(this.waiterSide.waiter.wakeUps()).as("no message was sent").isEqualTo(wakeUps);
		acquired.get().release();
	}

	@Test
	void withoutASubscriptionWaitersFallBackToBackoff() {
		AtomicInteger fallbackWaits = new AtomicInteger();
		ReleaseMessageWaiter unsubscribed = new ReleaseMessageWaiter((key) -> {
			fallbackWaits.incrementAndGet();
			return JitteredBackoffWaiter.standard().begin(key);
		});
		RedisLockClient client = RedisLockClient.builder(this.waiterSide.redis).waiter(unsubscribed).build();
		String key = TestRedis.uniqueKey("fallback");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		assertThat(client.tryLock(key, new LockOptions(Duration.ofMillis(200), Duration.ofSeconds(1)))).isEmpty();
		assertThat(fallbackWaits).hasValue(1);
		assertThat(unsubscribed.isSubscribed()).isFalse();
		held.release();
		client.close();
	}

	private CompletableFuture<LockHandle> waitFor(String key, AtomicInteger acquired) {
		return CompletableFuture.supplyAsync(() -> {
			LockHandle handle = this.waiterSide.client.lock(key, WAIT_LONG);
			acquired.incrementAndGet();
			return handle;
		}, (task) -> new Thread(task).start());
	}

}
