package dev.distlock.sample.orders;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.distlock.DistributedLock;

/**
 * Closes the unpaid orders older than {@code sample.orders.unpaid-max-age}, while holding the
 * lock {@code lock:job:close-expired-orders}, so that of several instances whose schedulers fire
 * at the same tick only one does the work.
 * <p>
 * The lock is tried once ({@code waitTime = "0"}): an instance that finds it held does not queue
 * up behind the holder, it gets a {@link dev.distlock.LockNotAcquiredException}, which
 * {@link CloseExpiredOrdersJob} treats as "another instance has this tick". distlock's skip
 * strategy will replace the exception: with {@code onNotAcquired = LockFailureAction.SKIP} added
 * to the annotation below, the method is not invoked and returns {@link Optional#empty()}, which
 * the job already reads as skipped, so switching is that one line. The same line can then add a
 * minimum hold time ({@code minHoldTime = "30s"}), so that an instance whose clock runs a little
 * behind cannot run a tick that another instance has already finished.
 */
@Service
public class ExpiredOrderCloser {

	private final OrderRepository orders;

	private final OrderProperties properties;

	private final Clock clock;

	ExpiredOrderCloser(OrderRepository orders, OrderProperties properties, Clock clock) {
		this.orders = orders;
		this.properties = properties;
		this.clock = clock;
	}

	/**
	 * Closes the expired unpaid orders.
	 * @return how many orders were closed; empty if another instance holds the job's lock (once
	 * the skip strategy is used)
	 * @throws dev.distlock.LockNotAcquiredException if another instance holds the job's lock
	 */
	@DistributedLock(key = "'lock:job:close-expired-orders'", waitTime = "0",
			leaseTime = "${sample.orders.close-lease-time:5m}")
	@Transactional
	public Optional<Integer> closeExpired() {
		Instant now = this.clock.instant();
		return Optional.of(this.orders.closeUnpaidCreatedBefore(now.minus(this.properties.unpaidMaxAge()), now));
	}

}
