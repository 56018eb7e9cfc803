package dev.distlock.sample.orders;

/**
 * Where an order is in its life.
 */
public enum OrderStatus {

	/** Placed and waiting for payment. */
	UNPAID,

	/** Paid; never closed by the job. */
	PAID,

	/** Closed because it stayed unpaid for too long. */
	CLOSED

}
