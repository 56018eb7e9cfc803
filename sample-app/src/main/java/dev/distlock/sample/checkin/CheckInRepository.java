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

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code check_in} and {@code queue_head} tables, with plain SQL that runs on H2,
 * MariaDB and PostgreSQL.
 */
@Repository
public class CheckInRepository {

	private final JdbcClient jdbc;

	/**
	 * Creates the repository.
	 * @param jdbc the client of the application's data source
	 */
	public CheckInRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Finds the check-in of a phone number.
	 * @param phone the phone number
	 * @return the check-in, if the number has checked in
	 */
	public Optional<CheckIn> findByPhone(String phone) {
		return this.jdbc
			.sql("select phone, student_name, gender, arrival_date, queue_position, checked_in_at, fence "
					+ "from check_in where phone = ?")
			.param(phone)
			.query(CheckInRepository::map)
			.optional();
	}

	/**
	 * Returns the last position given in a queue.
	 * @param gender the queue
	 * @return the highest position, 0 for an empty queue
	 */
	public int maxPosition(Gender gender) {
		return this.jdbc.sql("select coalesce(max(queue_position), 0) from check_in where gender = ?")
			.param(gender.name())
			.query(Integer.class)
			.single();
	}

	/**
	 * Counts the students ahead of a position.
	 * @param gender the queue
	 * @param position the position
	 * @return how many check-ins of the queue have a lower position
	 */
	public int countAhead(Gender gender, int position) {
		return this.jdbc.sql("select count(*) from check_in where gender = ? and queue_position < ?")
			.param(gender.name())
			.param(position)
			.query(Long.class)
			.single()
			.intValue();
	}

	/**
	 * Inserts a check-in.
	 * @param checkIn the new row
	 */
	public void insert(CheckIn checkIn) {
		this.jdbc
			.sql("insert into check_in (phone, student_name, gender, arrival_date, queue_position, checked_in_at, "
					+ "fence) values (?, ?, ?, ?, ?, ?, ?)")
			.params(checkIn.phone(), checkIn.studentName(), checkIn.gender().name(), checkIn.arrivalDate(),
					checkIn.position(), Timestamp.from(checkIn.checkedInAt()), checkIn.fence())
			.update();
	}

	private static CheckIn map(ResultSet rs, int row) throws SQLException {
		return new CheckIn(rs.getString("phone"), rs.getString("student_name"), Gender.valueOf(rs.getString("gender")),
				rs.getObject("arrival_date", LocalDate.class), rs.getInt("queue_position"),
				rs.getTimestamp("checked_in_at").toInstant(), rs.getLong("fence"));
	}

}
