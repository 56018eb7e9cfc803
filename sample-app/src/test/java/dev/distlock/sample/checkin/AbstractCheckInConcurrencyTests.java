package dev.distlock.sample.checkin;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.opentest4j.TestAbortedException;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.Concurrently;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 2 on two instances sharing one Redis and one database, run against each database the
 * sample supports: concurrent check-ins get unique, gap-free positions per gender.
 * {@link MisplacedLockCheckInTests} runs the same load with the lock inside the transaction and
 * sees duplicates, which shows that these tests can fail.
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
			// Aborted per test below, so that every test is counted and reported as skipped.
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
		SampleHttp.post(this.instances.baseUri(0), "/check-in-queue", SampleHttp.checkIn("First", "+4930111111", "MALE"));
		List<HttpResponse<String>> responses = Concurrently.run(16, 16, (i) -> SampleHttp.post(
				this.instances.baseUri(i % 2), "/check-in-queue", SampleHttp.checkIn("Grace", "+4930222222", "MALE")));
		assertThat(responses).filteredOn((response) -> response.statusCode() == 201).hasSize(1);
		assertThat(responses).filteredOn((response) -> response.statusCode() == 200).hasSize(15);
		assertThat(responses).extracting((response) -> SampleHttp.json(response).path("position").asInt())
			.containsOnly(2);
		assertThat(responses).extracting((response) -> SampleHttp.json(response).path("ahead").asInt())
			.containsOnly(1);
	}

}
