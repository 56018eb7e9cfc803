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

package dev.distlock.aop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.util.AopTestUtils;

import dev.distlock.DistributedLock;
import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockContext;
import dev.distlock.LockMode;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link DistributedLock#mode() mode} and {@link DistributedLock#permits() permits} of
 * {@link DistributedLock @DistributedLock} methods reach the lock client, shown by what
 * the locks do on the in-memory store: READ methods (also through a meta-annotation with
 * {@link AliasFor @AliasFor}) run together, a WRITE method excludes them and counts
 * exactly, {@code permits = 3} admits three concurrent calls and not a fourth, and a
 * WRITE method called inside a READ method fails with
 * {@link IllegalLockUpgradeException}.
 */
class SharedLockMethodTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distlock.store=in-memory")
		.withBean(Catalogue.class)
		.withBean(Partner.class);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		this.executor.shutdownNow();
	}

	@Test
	void readMethodsRunTogetherAndAWriteMethodWaitsForThem() {
		this.contextRunner.run((context) -> {
			Catalogue catalogue = context.getBean(Catalogue.class);
			CountDownLatch bothIn = new CountDownLatch(2);
			CountDownLatch leave = new CountDownLatch(1);
			CompletableFuture<Long> reader = CompletableFuture.supplyAsync(() -> catalogue.read(bothIn, leave),
					this.executor);
			CompletableFuture<Long> metaReader = CompletableFuture
				.supplyAsync(() -> catalogue.readThroughMetaAnnotation(bothIn, leave), this.executor);
			assertThat(bothIn.await(10, TimeUnit.SECONDS)).as("both readers inside at once").isTrue();
			assertThatExceptionOfType(CompletionException.class)
				.isThrownBy(() -> CompletableFuture.runAsync(catalogue::writeNow, this.executor).join())
				.withCauseInstanceOf(LockNotAcquiredException.class);
			leave.countDown();
			assertThat(reader.join()).isNotEqualTo(metaReader.join());
			assertThat(CompletableFuture.supplyAsync(catalogue::writeNow, this.executor).join())
				.as("the writer's token exceeds the readers'")
				.isGreaterThan(Math.max(reader.join(), metaReader.join()));
		});
	}

	@Test
	void writeMethodCountsExactlyWhileReadMethodsRun() {
		this.contextRunner.run((context) -> {
			Catalogue catalogue = context.getBean(Catalogue.class);
			ConcurrentRunner.run(6, 30, (thread) -> {
				if (thread < 4) {
					catalogue.increment();
				}
				else {
					catalogue.readCount();
				}
			});
			Catalogue target = (Catalogue) AopTestUtils.getUltimateTargetObject(catalogue);
			assertThat(target.count).isEqualTo(4 * 30);
			target.writes.assertSerial(4 * 30);
			long overlaps = target.reads.stream()
				.filter((read) -> target.writeHolds.stream()
					.anyMatch((write) -> read[0] < write[1] && write[0] < read[1]))
				.count();
			assertThat(target.reads).hasSize(2 * 30);
			assertThat(overlaps).as("reads that overlapped a write").isZero();
		});
	}

	@Test
	void threePermitsAdmitThreeCallsAndNotAFourth() {
		this.contextRunner.run((context) -> {
			Partner partner = context.getBean(Partner.class);
			CountDownLatch allIn = new CountDownLatch(3);
			CountDownLatch leave = new CountDownLatch(1);
			List<CompletableFuture<Void>> calls = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				calls.add(CompletableFuture.runAsync(() -> partner.call(allIn, leave), this.executor));
			}
			assertThat(allIn.await(10, TimeUnit.SECONDS)).as("three calls inside at once").isTrue();
			assertThatExceptionOfType(CompletionException.class)
				.isThrownBy(() -> CompletableFuture.runAsync(partner::callNow, this.executor).join())
				.withCauseInstanceOf(LockNotAcquiredException.class);
			leave.countDown();
			calls.forEach(CompletableFuture::join);
			CompletableFuture.runAsync(partner::callNow, this.executor).join();
		});
	}

	@Test
	void writeMethodInsideReadMethodIsRefused() {
		this.contextRunner.run((context) -> {
			Catalogue catalogue = context.getBean(Catalogue.class);
			assertThatExceptionOfType(IllegalLockUpgradeException.class)
				.isThrownBy(() -> catalogue.readThenWrite(catalogue))
				.withMessageContaining("'catalogue'");
		});
	}

	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(mode = LockMode.READ, waitTime = "1m")
	@interface ReadLock {

		@AliasFor(annotation = DistributedLock.class, attribute = "key")
		String value();

	}

	static class Catalogue {

		int count;

		final HoldLog writes = new HoldLog();

		final ConcurrentLinkedQueue<long[]> writeHolds = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<long[]> reads = new ConcurrentLinkedQueue<>();

		@DistributedLock(key = "'catalogue'", mode = LockMode.READ, waitTime = "1m")
		public long read(CountDownLatch in, CountDownLatch leave) {
			in.countDown();
			awaitQuietly(leave);
			return LockContext.fencingToken();
		}

		@ReadLock("'catalogue'")
		public long readThroughMetaAnnotation(CountDownLatch in, CountDownLatch leave) {
			in.countDown();
			awaitQuietly(leave);
			return LockContext.fencingToken();
		}

		@DistributedLock(key = "'catalogue'", mode = LockMode.WRITE, waitTime = "0")
		public long writeNow() {
			return LockContext.fencingToken();
		}

		@DistributedLock(key = "'catalogue'", mode = LockMode.READ, waitTime = "0")
		public void readThenWrite(Catalogue self) {
			self.writeNow();
		}

		@DistributedLock(key = "'counter'", mode = LockMode.WRITE, waitTime = "1m")
		public void increment() {
			long start = System.nanoTime();
			int read = this.count;
			Thread.yield();
			this.count = read + 1;
			long end = System.nanoTime();
			this.writes.record(start, end);
			this.writeHolds.add(new long[] { start, end });
		}

		@ReadLock("'counter'")
		public void readCount() {
			long start = System.nanoTime();
			Thread.yield();
			this.reads.add(new long[] { start, System.nanoTime() });
		}

	}

	static class Partner {

		@DistributedLock(key = "'partner'", permits = 3, waitTime = "1m")
		public void call(CountDownLatch in, CountDownLatch leave) {
			in.countDown();
			awaitQuietly(leave);
		}

		@DistributedLock(key = "'partner'", permits = 3, waitTime = "0")
		public void callNow() {
		}

	}

	static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
