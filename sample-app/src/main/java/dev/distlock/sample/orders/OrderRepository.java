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

package dev.distlock.sample.orders;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code customer_order} table, with plain SQL that runs on H2, MariaDB and
 * PostgreSQL.
 */
@Repository
public class OrderRepository {

	private final JdbcClient jdbc;

	/**
	 * Creates the repository.
	 * @param jdbc the client of the application's data source
	 */
	public OrderRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Inserts an order.
	 * @param order the new row
	 */
	public void insert(Order order) {
		this.jdbc.sql("insert into customer_order (id, status, created_at, closed_at) values (?, ?, ?, ?)")
			.params(order.id(), order.status().name(), Timestamp.from(order.createdAt()),
					(order.closedAt() != null) ? Timestamp.from(order.closedAt()) : null)
			.update();
	}

	/**
	 * Finds an order.
	 * @param id the order's identifier
	 * @return the order, if it exists
	 */
	public Optional<Order> find(String id) {
		return this.jdbc.sql("select id, status, created_at, closed_at from customer_order where id = ?")
			.param(id)
			.query(OrderRepository::map)
			.optional();
	}

	/**
	 * Marks an unpaid order paid.
	 * @param id the order's identifier
	 * @return whether an unpaid order was found and marked
	 */
	public boolean markPaid(String id) {
		return this.jdbc.sql("update customer_order set status = 'PAID' where id = ? and status = 'UNPAID'")
			.param(id)
			.update() == 1;
	}

	/**
	 * Closes every unpaid order placed before a cutoff. Closing an order twice is
	 * impossible: only unpaid orders are updated.
	 * @param cutoff orders placed before this instant are closed
	 * @param now the closing time to record
	 * @return how many orders were closed
	 */
	public int closeUnpaidCreatedBefore(Instant cutoff, Instant now) {
		return this.jdbc
			.sql("update customer_order set status = 'CLOSED', closed_at = ? "
					+ "where status = 'UNPAID' and created_at < ?")
			.params(Timestamp.from(now), Timestamp.from(cutoff))
			.update();
	}

	private static Order map(ResultSet rs, int row) throws SQLException {
		Timestamp closedAt = rs.getTimestamp("closed_at");
		return new Order(rs.getString("id"), OrderStatus.valueOf(rs.getString("status")),
				rs.getTimestamp("created_at").toInstant(), (closedAt != null) ? closedAt.toInstant() : null);
	}

}
