package dev.distlock.sample.orders;

import java.time.Instant;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An {@link OrderRepository} that waits at a {@link TickGate} before closing orders, that
 * is while its instance holds the job's lock.
 */
class GatedOrderRepository extends OrderRepository {

	private final TickGate gate;

	GatedOrderRepository(JdbcClient jdbc, TickGate gate) {
		super(jdbc);
		this.gate = gate;
	}

	@Override
	public int closeUnpaidCreatedBefore(Instant cutoff, Instant now) {
		this.gate.pass();
		return super.closeUnpaidCreatedBefore(cutoff, now);
	}

}
