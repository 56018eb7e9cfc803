package dev.distlock.redis.lease;

/**
 * Told what renewal found out about the holds it renews.
 *
 * @param <H> the type of the holds
 */
public interface RenewalListener<H extends RenewedHold> {

	/**
	 * The hold's local validity ran out before Redis confirmed a renewal.
	 * @param hold the hold
	 * @param reason why, for the log
	 */
	void leaseLost(H hold, String reason);

	/**
	 * Redis answered that the hold's key was gone or held with another token: every hold
	 * of this client with the same key and token has lost the lock.
	 * @param hold the hold
	 * @param reason why, for the log
	 */
	void tokenLost(H hold, String reason);

	/**
	 * The hold's thread ended without releasing it; it is no longer renewed and expires
	 * with its lease.
	 * @param hold the hold
	 */
	void holderDied(H hold);

	/**
	 * A renewal round ended.
	 * @param renewed how many leases it renewed
	 * @param roundTrips how many commands it sent
	 */
	void renewed(int renewed, int roundTrips);

}
