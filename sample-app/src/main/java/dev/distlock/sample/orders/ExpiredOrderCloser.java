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

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.distlock.DistributedLock;
import dev.distlock.LockFailureAction;

/**
 * Closes the unpaid orders older than {@code sample.orders.unpaid-max-age}, while holding
 * the lock {@code lock:job:close-expired-orders}, so that of several instances whose
 * schedulers fire at the same tick only one does the work.
 * <p>
 * The lock is tried once ({@code waitTime = "0"}) with distlock's skip strategy: an
 * instance that finds it held does not queue up behind the holder, the method is simply
 * not invoked and returns {@link Optional#empty()}. The lock is also kept for at least
 * {@code sample.orders.close-min-hold-time} from its acquisition, even when the work
 * takes a few milliseconds: schedulers never fire at exactly the same moment, and an
 * instance whose clock runs slightly behind would otherwise find the lock free again and
 * close the same tick a second time. Keep the minimum hold shorter than the time between
 * ticks, or the next tick is skipped too.
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
	 * @return how many orders were closed; empty if another instance holds the job's
	 * lock, or held it less than the minimum hold time ago
	 */
	@DistributedLock(name = "close-expired-orders", key = "'lock:job:close-expired-orders'", waitTime = "0",
			leaseTime = "${sample.orders.close-lease-time:5m}",
			minHoldTime = "${sample.orders.close-min-hold-time:30s}", onNotAcquired = LockFailureAction.SKIP)
	@Transactional
	public Optional<Integer> closeExpired() {
		Instant now = this.clock.instant();
		return Optional.of(this.orders.closeUnpaidCreatedBefore(now.minus(this.properties.unpaidMaxAge()), now));
	}

}
