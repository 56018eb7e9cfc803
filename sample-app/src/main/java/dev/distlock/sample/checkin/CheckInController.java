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

import java.net.URI;

import jakarta.validation.Valid;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * HTTP API of the check-in queue: {@code POST /check-in-queue} answers
 * {@code 201 Created} with a new position, or {@code 200 OK} with the existing one for a
 * phone number that checked in before; {@code GET /check-in-queue/{phone}} looks a
 * position up.
 */
@RestController
@RequestMapping("/check-in-queue")
class CheckInController {

	private final CheckInService checkIns;

	CheckInController(CheckInService checkIns) {
		this.checkIns = checkIns;
	}

	@PostMapping
	ResponseEntity<QueueTicket> checkIn(@Valid @RequestBody CheckInRequest request) {
		QueueTicket ticket;
		try {
			ticket = this.checkIns.checkIn(request);
		}
		catch (DuplicateKeyException ex) {
			// The same phone number checked in at the same moment into the other gender's
			// queue,
			// under the other queue's lock, and won: it keeps the position it got there.
			ticket = this.checkIns.find(request.phone()).orElseThrow(() -> ex);
		}
		if (ticket.alreadyQueued()) {
			return ResponseEntity.ok(ticket);
		}
		return ResponseEntity.created(URI.create("/check-in-queue/" + ticket.phone())).body(ticket);
	}

	@GetMapping("/{phone}")
	QueueTicket find(@PathVariable String phone) {
		return this.checkIns.find(phone)
			.orElseThrow(() -> new ErrorResponseException(HttpStatus.NOT_FOUND,
					ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "Phone " + phone + " has not checked in"),
					null));
	}

}
