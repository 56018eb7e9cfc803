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

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import tools.jackson.databind.json.JsonMapper;

import dev.distlock.sample.checkin.CheckInRequest;
import dev.distlock.sample.checkin.Gender;
import dev.distlock.sample.demo.DemoRequest.Kind;

/**
 * Builds the demo's requests: decrements spread evenly over the SKUs and check-ins of
 * both genders, some with the phone number of an earlier check-in, shuffled with a fixed
 * seed so that both scenarios are under load at the same time, and sent alternately to
 * each instance.
 */
final class DemoRequests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final JsonMapper json = JsonMapper.builder().build();

	private DemoRequests() {
	}

	/**
	 * Builds the requests.
	 * @param settings how many of each
	 * @param instances base URIs of the instances
	 * @return the requests in sending order
	 */
	static List<DemoRequest> build(DemoSettings settings, List<URI> instances) {
		List<Work> work = new ArrayList<>();
		for (int i = 0; i < settings.decrements(); i++) {
			work.add(new Work(Kind.DECREMENT, 1 + i % settings.skus()));
		}
		int repeats = Math.min(settings.repeatedPhones(), settings.checkIns() / 2);
		int students = settings.checkIns() - repeats;
		for (int i = 0; i < settings.checkIns(); i++) {
			work.add(new Work(Kind.CHECK_IN, (i < students) ? i : i - students));
		}
		Collections.shuffle(work, new Random(42));
		List<DemoRequest> requests = new ArrayList<>(work.size());
		for (int i = 0; i < work.size(); i++) {
			URI base = instances.get(i % instances.size());
			Work item = work.get(i);
			requests
				.add((item.kind() == Kind.DECREMENT) ? decrement(base, item.subject()) : checkIn(base, item.subject()));
		}
		return requests;
	}

	static String phone(int student) {
		return String.format("+4930%07d", student);
	}

	private static DemoRequest decrement(URI base, int skuId) {
		HttpRequest http = HttpRequest.newBuilder(base.resolve("/skus/" + skuId + "/stock/decrement"))
			.timeout(TIMEOUT)
			.POST(BodyPublishers.noBody())
			.build();
		return new DemoRequest(Kind.DECREMENT, Integer.toString(skuId), http);
	}

	private static DemoRequest checkIn(URI base, int student) {
		Gender gender = (student % 2 == 0) ? Gender.FEMALE : Gender.MALE;
		CheckInRequest body = new CheckInRequest("Student " + student, phone(student), gender,
				LocalDate.of(2025, 9, 1 + student % 7));
		HttpRequest http = HttpRequest.newBuilder(base.resolve("/check-in-queue"))
			.timeout(TIMEOUT)
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(json.writeValueAsString(body)))
			.build();
		return new DemoRequest(Kind.CHECK_IN, phone(student), http);
	}

	private record Work(Kind kind, int subject) {

	}

}
