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

package dev.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Why fencing tokens exist: a holder blocked past its lease comes back and writes with
 * its old token after the next holder has written. A store that checks the token rejects
 * the stale write; a store that does not loses the next holder's write.
 */
class FencingTokenTests {

	private LockFixture fixture;

	private EmbeddedDatabase database;

	private JdbcTemplate jdbc;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
		// The client's first acquisition runs the acquire script (which grants the token
		// with the lock); later ones of a free lock are a plain SET NX PX.
		this.fixture.client.lock(TestRedis.uniqueKey("first"), new LockOptions(Duration.ZERO, Duration.ofSeconds(30)))
			.release();
		this.database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		this.jdbc = new JdbcTemplate((DataSource) this.database);
		this.jdbc.execute("create table account (id int primary key, owner varchar(16), fence bigint not null)");
		this.jdbc.update("insert into account (id, owner, fence) values (1, 'nobody', 0)");
	}

	@AfterEach
	void stop() {
		this.database.shutdown();
		this.fixture.close();
	}

	@Test
	void storeThatChecksTheTokenRejectsTheStaleHolder() throws Exception {
		pausedHolderWritesAfterTheNextHolder((owner, fence) -> this.jdbc
			.update("update account set owner = ?, fence = ? where id = 1 and fence < ?", owner, fence, fence));
		assertThat(owner()).as("the next holder's write survives").isEqualTo("second");
	}

	@Test
	void storeWithoutTheCheckLetsTheStaleHolderOverwrite() throws Exception {
		pausedHolderWritesAfterTheNextHolder((owner, fence) -> this.jdbc
			.update("update account set owner = ?, fence = ? where id = 1", owner, fence));
		assertThat(owner()).as("the overlap is visible: the stale holder overwrote the next one").isEqualTo("first");
	}

	private void pausedHolderWritesAfterTheNextHolder(Store store) throws Exception {
		String key = TestRedis.uniqueKey("fenced");
		CountDownLatch firstHolds = new CountDownLatch(1);
		CountDownLatch secondHasWritten = new CountDownLatch(1);
		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> {
			LockHandle handle = this.fixture.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(200)));
			// It got its token while it held the lock (a lock acquired with SET NX PX is
			// issued its token when first asked, and only while it is held).
			long fence = handle.fencingToken();
			firstHolds.countDown();
			awaitLatch(secondHasWritten);
			// Paused past the lease (a GC pause, a stalled VM): it still believes it
			// holds the lock.
			return store.write("first", fence);
		});
		awaitLatch(firstHolds);
		LockHandle second = this.fixture.client.lock(key,
				new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30)));
		store.write("second", second.fencingToken());
		secondHasWritten.countDown();
		first.get(20, TimeUnit.SECONDS);
		second.release();
	}

	@Test
	void holderThatAsksForItsTokenOnlyAfterThePauseIsIssuedNone() {
		String key = TestRedis.uniqueKey("fenced");
		LockHandle first = onAnotherThread(key, Duration.ofMillis(200));
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		LockHandle second = this.fixture.client.lock(key,
				new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30)));
		long secondFence = second.fencingToken();
		assertThatExceptionOfType(LockLeaseLostException.class)
			.as("a token is issued only while the key holds the holder's owner token")
			.isThrownBy(first::fencingToken)
			.withMessageContaining("fencing token");
		assertThat(second.fencingToken()).isEqualTo(secondFence);
		second.release();
	}

	@Test
	void holderWhoseKeyWasTakenIsIssuedNoTokenByRedis() {
		String key = TestRedis.uniqueKey("fenced");
		LockHandle first = onAnotherThread(key, Duration.ofSeconds(30));
		// The key is lost without the holder's knowledge (an eviction, a failover that
		// lost the last write), and another holder takes the lock.
		this.fixture.redis.delete(key);
		try (LockFixture otherInstance = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
				LockHandle second = otherInstance.client.lock(key,
						new LockOptions(Duration.ZERO, Duration.ofSeconds(30)))) {
			assertThat(first.isLeaseLost()).as("by the local count, still valid").isFalse();
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(first::fencingToken)
				.withMessageContaining("held by another owner");
			assertThat(first.isLeaseLost()).as("found lost").isTrue();
			assertThat(second.fencingToken()).isPositive();
		}
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(first::release);
	}

	/** Acquires the key on another thread, which then leaves the hold to this one. */
	private LockHandle onAnotherThread(String key, Duration lease) {
		return CompletableFuture.supplyAsync(() -> this.fixture.client.lock(key, new LockOptions(Duration.ZERO, lease)))
			.join();
	}

	private String owner() {
		return this.jdbc.queryForObject("select owner from account where id = 1", String.class);
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@FunctionalInterface
	interface Store {

		int write(String owner, long fence);

	}

}
