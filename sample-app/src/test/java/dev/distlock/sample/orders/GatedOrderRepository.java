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
