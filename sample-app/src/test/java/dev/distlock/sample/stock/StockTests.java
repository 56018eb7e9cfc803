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

package dev.distlock.sample.stock;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.Concurrently;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 1 on two instances sharing one Redis: concurrent decrements through both end
 * with exactly the expected stock, and the stock never goes below zero.
 */
class StockTests {

	private static SampleInstances instances;

	@BeforeAll
	static void startInstances() {
		instances = TestCluster.start(2, RedisTestServers.shared(), TestDatabase.h2());
	}

	@AfterAll
	static void stopInstances() {
		instances.close();
	}

	@Test
	void concurrentDecrementsThroughTwoInstancesLoseNoUpdate() throws Exception {
		long sku = 1001;
		setStock(sku, 1000);
		List<Integer> statuses = Concurrently.run(300, 24,
				(i) -> SampleHttp.post(instance(i), "/skus/" + sku + "/stock/decrement").statusCode());
		assertThat(statuses).containsOnly(200);
		assertThat(stockOf(sku)).isEqualTo(700);
	}

	@Test
	void concurrentDecrementsStopAtZero() throws Exception {
		long sku = 1002;
		setStock(sku, 150);
		List<HttpResponse<String>> responses = Concurrently.run(200, 24,
				(i) -> SampleHttp.post(instance(i), "/skus/" + sku + "/stock/decrement"));
		assertThat(responses).filteredOn((response) -> response.statusCode() == 200).hasSize(150);
		assertThat(responses).filteredOn((response) -> response.statusCode() != 200)
			.hasSize(50)
			.allSatisfy((response) -> {
				assertThat(response.statusCode()).isEqualTo(409);
				assertThat(SampleHttp.json(response).path("type").asString())
					.isEqualTo(OutOfStockException.TYPE.toString());
			});
		assertThat(stockOf(sku)).isZero();
	}

	@Test
	void decrementOfMoreThanIsLeftTakesNothing() {
		long sku = 1003;
		setStock(sku, 2);
		HttpResponse<String> response = SampleHttp.post(instance(0), "/skus/" + sku + "/stock/decrement?quantity=3");
		assertThat(response.statusCode()).isEqualTo(409);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(SampleHttp.json(response).path("available").asLong()).isEqualTo(2);
		assertThat(stockOf(sku)).isEqualTo(2);
	}

	@Test
	void concurrentMovesInOppositeDirectionsThroughTwoInstancesKeepExactStock() throws Exception {
		long first = 1004;
		long second = 1005;
		setStock(first, 1000);
		setStock(second, 1000);
		List<Integer> statuses = Concurrently.run(200, 24,
				(i) -> SampleHttp
					.post(instance(i),
							(i % 2 == 0) ? "/skus/" + first + "/stock/move?to=" + second
									: "/skus/" + second + "/stock/move?to=" + first)
					.statusCode());
		assertThat(statuses).containsOnly(200);
		assertThat(stockOf(first)).isEqualTo(1000);
		assertThat(stockOf(second)).isEqualTo(1000);
	}

	@Test
	void unknownSkuIsNotFound() {
		assertThat(SampleHttp.post(instance(1), "/skus/404404/stock/decrement").statusCode()).isEqualTo(404);
	}

	@Test
	void quantityBelowOneIsRejectedNamingTheParameter() {
		HttpResponse<String> response = SampleHttp.post(instance(0), "/skus/1003/stock/decrement?quantity=0");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(SampleHttp.json(response).path("errors").get(0).path("field").asString()).isEqualTo("quantity");
	}

	private static void setStock(long sku, long quantity) {
		assertThat(SampleHttp.put(instance(0), "/skus/" + sku + "/stock", SampleHttp.stock(quantity)).statusCode())
			.isEqualTo(200);
	}

	private static long stockOf(long sku) {
		HttpResponse<String> response = SampleHttp.get(instance(1), "/skus/" + sku + "/stock");
		assertThat(response.statusCode()).isEqualTo(200);
		return SampleHttp.json(response).path("quantity").asLong();
	}

	private static URI instance(int request) {
		return instances.baseUri(request % instances.size());
	}

}
