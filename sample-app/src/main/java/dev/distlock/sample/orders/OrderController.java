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

import java.net.URI;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * HTTP API of the orders, enough to watch the job: {@code POST /orders} places an unpaid
 * order, {@code POST /orders/{id}/pay} pays it, {@code GET /orders/{id}} shows it.
 */
@RestController
@RequestMapping("/orders")
class OrderController {

	private final OrderRepository orders;

	private final Clock clock;

	OrderController(OrderRepository orders, Clock clock) {
		this.orders = orders;
		this.clock = clock;
	}

	@PostMapping
	ResponseEntity<Order> place() {
		Order order = new Order(UUID.randomUUID().toString(), OrderStatus.UNPAID,
				this.clock.instant().truncatedTo(ChronoUnit.MILLIS), null);
		this.orders.insert(order);
		return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
	}

	@PostMapping("/{id}/pay")
	Order pay(@PathVariable String id) {
		Order order = find(id);
		if (!this.orders.markPaid(id)) {
			throw new ErrorResponseException(HttpStatus.CONFLICT, ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
					"Order " + id + " is " + order.status() + ", only UNPAID orders can be paid"), null);
		}
		return find(id);
	}

	@GetMapping("/{id}")
	Order find(@PathVariable String id) {
		return this.orders.find(id)
			.orElseThrow(() -> new ErrorResponseException(HttpStatus.NOT_FOUND,
					ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "Order " + id + " does not exist"), null));
	}

}
