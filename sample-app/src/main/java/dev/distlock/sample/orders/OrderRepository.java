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
