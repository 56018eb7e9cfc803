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

import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDate;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.DistributedLockException;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.fencing.StaleFencingTokenException;
import dev.distlock.sample.checkin.CheckInRequest;
import dev.distlock.sample.checkin.CheckInService;
import dev.distlock.sample.checkin.Gender;
import dev.distlock.sample.checkin.LockLostException;
import dev.distlock.sample.stock.StockService;

/**
 * An instance paused past its lease, after the load: instance 0 holds the lock of SKU 1
 * (then of the {@code FEMALE} queue) and is paused after its lease check, so that its
 * lease runs out in Redis (the lock's key is deleted, as its expiry would delete it)
 * while it still believes it holds the lock. Instance 1 takes the lock with a newer
 * fencing token and writes. Instance 0 resumes and writes in turn, on the thread that
 * holds the old lock: the fenced writes refuse it and the newer data stays.
 *
 * @param stockRefusal what instance 0's stock write got ({@code none} if it was applied)
 * @param stockKept whether SKU 1 kept the quantity instance 1 set
 * @param checkInRefusal what instance 0's check-in got ({@code none} if it was stored)
 * @param checkInStored whether instance 0's check-in was stored anyway
 */
record PausedHolderCheck(String stockRefusal, boolean stockKept, String checkInRefusal, boolean checkInStored) {

	private static final long NEWER_QUANTITY = 7;

	/**
	 * Runs both pauses.
	 * @param instances the demo's instances, at least two, sharing Redis and the database
	 * @return the check
	 */
	static PausedHolderCheck run(SampleInstances instances) {
		LockClient pausedLocks = instances.bean(0, LockClient.class);
		StringRedisTemplate redis = instances.bean(0, StringRedisTemplate.class);
		String stockRefusal;
		LockHandle paused = pausedLocks.lock("lock:sku:1", new LockOptions(Duration.ZERO, Duration.ofMinutes(1)));
		try {
			// It had its fencing token before the pause (a lock taken with SET NX PX is
			// issued it when first asked, and only while it holds the lock).
			paused.fencingToken();
			redis.delete(paused.key());
			onAnotherThread(() -> instances.bean(1, StockService.class).set(1, NEWER_QUANTITY));
			stockRefusal = refusal(() -> instances.bean(0, StockService.class).decrement(1, 1));
		}
		finally {
			releaseLost(paused);
		}
		boolean stockKept = instances.bean(0, StockService.class).get(1).quantity() == NEWER_QUANTITY;

		String checkInRefusal;
		String latePhone = "+490000000001";
		paused = pausedLocks.lock("lock:check-in:FEMALE", new LockOptions(Duration.ZERO, Duration.ofMinutes(1)));
		try {
			paused.fencingToken();
			redis.delete(paused.key());
			onAnotherThread(() -> instances.bean(1, CheckInService.class)
				.checkIn(new CheckInRequest("Newer", "+490000000002", Gender.FEMALE, LocalDate.of(2025, 9, 1))));
			checkInRefusal = refusal(() -> instances.bean(0, CheckInService.class)
				.checkIn(new CheckInRequest("Paused", latePhone, Gender.FEMALE, LocalDate.of(2025, 9, 1))));
		}
		finally {
			releaseLost(paused);
		}
		boolean checkInStored = instances.bean(0, JdbcClient.class)
			.sql("select count(*) from check_in where phone = ?")
			.param(latePhone)
			.query(Long.class)
			.single() > 0;
		return new PausedHolderCheck(stockRefusal, stockKept, checkInRefusal, checkInStored);
	}

	/**
	 * Whether both paused writes were refused and the newer data stayed.
	 * @return {@code true} if the fences held
	 */
	boolean consistent() {
		return this.stockRefusal.equals(StaleFencingTokenException.class.getSimpleName()) && this.stockKept
				&& this.checkInRefusal.equals(LockLostException.class.getSimpleName()) && !this.checkInStored;
	}

	/**
	 * Prints the check's lines of the report.
	 * @param out where to print
	 */
	void print(PrintStream out) {
		out.printf("paused instance  stock write after its lease ran out: %s, SKU 1 %s the newer holder's %d%n",
				this.stockRefusal.equals("none") ? "APPLIED" : "refused (" + this.stockRefusal + ")",
				this.stockKept ? "keeps" : "LOST", NEWER_QUANTITY);
		out.printf("                 check-in after its lease ran out: %s, %s%n",
				this.checkInRefusal.equals("none") ? "APPLIED" : "refused (" + this.checkInRefusal + ")",
				this.checkInStored ? "STORED" : "nothing stored");
	}

	private static String refusal(Runnable write) {
		try {
			write.run();
			return "none";
		}
		catch (StaleFencingTokenException | LockLostException ex) {
			return ex.getClass().getSimpleName();
		}
	}

	private static void onAnotherThread(Supplier<?> newerHolder) {
		// Another thread: the paused hold is this thread's, and instance 1 is another
		// process in all but the JVM.
		CompletableFuture.supplyAsync(newerHolder).join();
	}

	private static void releaseLost(LockHandle paused) {
		try {
			paused.release();
		}
		catch (DistributedLockException ex) {
			// Expected: the lease ran out, and the release says so.
		}
	}

}
