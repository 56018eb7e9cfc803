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

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.sample.demo.DemoRequest.Kind;
import dev.distlock.web.LockProblemTypes;

/**
 * Checks scenario 2 after the load, in the shared database and in the responses: no two
 * check-ins of a gender share a position, positions run from 1 without gaps, and every
 * response for the same phone number names the same position.
 *
 * @param sent check-in requests sent
 * @param created answered {@code 201}: a new position
 * @param repeated answered {@code 200}: the phone's existing position
 * @param busy answered {@code 409} lock not acquired
 * @param unexpected any other answer, or none
 * @param rows check-ins in the database
 * @param duplicates positions given to more than one check-in of the same gender
 * @param gaps positions missing below the highest of each gender
 * @param disagreeingPhones phone numbers whose responses named different positions
 * @param maxPositions the highest position of each gender
 */
record QueueCheck(int sent, int created, int repeated, int busy, int unexpected, int rows, int duplicates, int gaps,
		int disagreeingPhones, Map<String, Integer> maxPositions) {

	/**
	 * Tallies the responses and queries the database.
	 * @param responses every response of the demo
	 * @param jdbc a client of the shared database
	 * @return the check
	 */
	static QueueCheck of(List<DemoResponse> responses, JdbcClient jdbc) {
		int sent = 0, created = 0, repeated = 0, busy = 0;
		Map<String, Integer> positionOfPhone = new HashMap<>();
		Set<String> disagreeing = new HashSet<>();
		for (DemoResponse response : responses) {
			if (response.request().kind() != Kind.CHECK_IN) {
				continue;
			}
			sent++;
			if (response.status() == 201 || response.status() == 200) {
				created += (response.status() == 201) ? 1 : 0;
				repeated += (response.status() == 200) ? 1 : 0;
				int position = response.json().path("position").asInt();
				Integer earlier = positionOfPhone.putIfAbsent(response.request().subject(), position);
				if (earlier != null && earlier != position) {
					disagreeing.add(response.request().subject());
				}
			}
			else if (response.status() == 409 && response.isProblem(LockProblemTypes.LOCK_NOT_ACQUIRED)) {
				busy++;
			}
		}
		int rows = jdbc.sql("select count(*) from check_in").query(Long.class).single().intValue();
		int duplicates = jdbc
			.sql("select count(*) from (select gender, queue_position from check_in "
					+ "group by gender, queue_position having count(*) > 1) duplicated")
			.query(Long.class)
			.single()
			.intValue();
		Map<String, Integer> maxPositions = new HashMap<>();
		int gaps = 0;
		for (Map<String, Object> row : jdbc
			.sql("select gender, max(queue_position) as max_position, "
					+ "count(distinct queue_position) as positions from check_in group by gender")
			.query()
			.listOfRows()) {
			int max = ((Number) row.get("max_position")).intValue();
			maxPositions.put(String.valueOf(row.get("gender")), max);
			gaps += max - ((Number) row.get("positions")).intValue();
		}
		return new QueueCheck(sent, created, repeated, busy, sent - created - repeated - busy, rows, duplicates, gaps,
				disagreeing.size(), maxPositions);
	}

	/**
	 * Whether the queues are exactly as expected.
	 * @return {@code true} without duplicates, gaps, disagreeing answers or unexpected
	 * responses, and with one row per new position given
	 */
	boolean consistent() {
		return this.duplicates == 0 && this.gaps == 0 && this.disagreeingPhones == 0 && this.unexpected == 0
				&& this.rows == this.created;
	}

}
