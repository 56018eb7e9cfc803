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

package dev.distlock.sample.checkin;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.opentest4j.TestAbortedException;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.Concurrently;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Scenario 2 on two instances sharing one Redis and one database, run against each
 * database the sample supports: concurrent check-ins get unique, gap-free positions per
 * gender, and a holder whose lease ran out is refused by the fenced write once a newer
 * holder has written. {@link MisplacedLockCheckInTests} runs the same load with the lock
 * inside the transaction and sees duplicates, which shows that these tests can fail.
 */
@TestInstance(Lifecycle.PER_CLASS)
abstract class AbstractCheckInConcurrencyTests {

	private static final int PER_GENDER = 60;

	private SampleInstances instances;

	private TestAbortedException databaseUnavailable;

	/**
	 * The database the instances share.
	 * @return the database; aborts the tests if it is not reachable
	 */
	protected abstract TestDatabase database();

	@BeforeAll
	void startInstances() {
		try {
			this.instances = TestCluster.start(2, RedisTestServers.shared(), database());
		}
		catch (TestAbortedException ex) {
			// Aborted per test below, so that every test is counted and reported as
			// skipped.
			this.databaseUnavailable = ex;
		}
	}

	@AfterAll
	void stopInstances() {
		if (this.instances != null) {
			TestDatabase.deleteAllRows(this.instances.bean(0, JdbcClient.class));
			this.instances.close();
		}
	}

	@BeforeEach
	void emptyTheQueues() {
		if (this.databaseUnavailable != null) {
			throw this.databaseUnavailable;
		}
		TestDatabase.deleteAllRows(this.instances.bean(0, JdbcClient.class));
	}

	@Test
	void concurrentCheckInsThroughTwoInstancesGetUniqueGapFreePositions() throws Exception {
		CheckInLoad.Result result = CheckInLoad.run(this.instances, PER_GENDER, 24);
		List<Integer> expected = IntStream.rangeClosed(1, PER_GENDER).boxed().toList();
		assertThat(result.statuses()).containsOnly(201);
		assertThat(result.female()).as("female positions in the database").isEqualTo(expected);
		assertThat(result.male()).as("male positions in the database").isEqualTo(expected);
		assertThat(result.answeredPositions(Gender.FEMALE)).as("female positions answered").isEqualTo(expected);
		assertThat(result.answeredPositions(Gender.MALE)).as("male positions answered").isEqualTo(expected);
	}

	@Test
	void concurrentRepeatsOfOnePhoneGetOnePosition() throws Exception {
		SampleHttp.post(this.instances.baseUri(0), "/check-in-queue",
				SampleHttp.checkIn("First", "+4930111111", "MALE"));
		List<HttpResponse<String>> responses = Concurrently.run(16, 16,
				(i) -> SampleHttp.post(this.instances.baseUri(i % 2), "/check-in-queue",
						SampleHttp.checkIn("Grace", "+4930222222", "MALE")));
		assertThat(responses).filteredOn((response) -> response.statusCode() == 201).hasSize(1);
		assertThat(responses).filteredOn((response) -> response.statusCode() == 200).hasSize(15);
		assertThat(responses).extracting((response) -> SampleHttp.json(response).path("position").asInt())
			.containsOnly(2);
		assertThat(responses).extracting((response) -> SampleHttp.json(response).path("ahead").asInt()).containsOnly(1);
	}

	/**
	 * A holder paused past its lease, replayed without timing: the test thread holds the
	 * FEMALE queue's lock on instance 0, and its key is deleted from Redis as the lease
	 * expiring would delete it. Instance 1 then checks in under a newer token. When the
	 * paused holder resumes and checks in, on the same thread, instance 0's client still
	 * counts it as the holder (re-entrant acquisition, the old token), exactly as a
	 * holder that does not know its lease ran out.
	 */
	@Test
	void checkInWithAStaleFencingTokenIsRefusedAndStoresNothing() {
		LockClient locks = this.instances.bean(0, LockClient.class);
		LockHandle paused = locks.lock("lock:check-in:FEMALE", new LockOptions(Duration.ZERO, Duration.ofMinutes(1)));
		// The holder got its fencing token while it held the lock.
		long pausedToken = paused.fencingToken();
		try {
			this.instances.bean(0, StringRedisTemplate.class).delete(paused.key());
			HttpResponse<String> newer = SampleHttp.post(this.instances.baseUri(1), "/check-in-queue",
					SampleHttp.checkIn("Ida", "+4930333001", "FEMALE"));
			assertThat(newer.statusCode()).isEqualTo(201);
			assertThat(headFence(Gender.FEMALE)).isGreaterThan(pausedToken);

			CheckInService checkIns = this.instances.bean(0, CheckInService.class);
			CheckInRequest late = new CheckInRequest("Jon", "+4930333002", Gender.FEMALE, LocalDate.of(2025, 9, 1));
			assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> checkIns.checkIn(late))
				.satisfies((ex) -> assertThat(ex.getFencingToken()).isEqualTo(pausedToken));
			assertThat(checkIns.find(late.phone())).as("the refused check-in").isEmpty();
			assertThat(checkIns.find("+4930333001"))
				.hasValueSatisfying((ticket) -> assertThat(ticket.position()).isOne());
			assertThat(headPosition(Gender.FEMALE)).isOne();
		}
		finally {
			assertThatExceptionOfType(LockLeaseLostException.class).as("release of the paused holder")
				.isThrownBy(paused::release);
		}
	}

	private long headFence(Gender gender) {
		return this.instances.bean(0, JdbcClient.class)
			.sql("select fence from queue_head where gender = ?")
			.param(gender.name())
			.query(Long.class)
			.single();
	}

	private int headPosition(Gender gender) {
		return this.instances.bean(0, JdbcClient.class)
			.sql("select last_position from queue_head where gender = ?")
			.param(gender.name())
			.query(Integer.class)
			.single();
	}

}
