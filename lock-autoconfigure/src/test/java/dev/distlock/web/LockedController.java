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

package dev.distlock.web;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.distlock.web.LockedWebApplication.LockedWork;

/**
 * Runs locked work for requests: {@code POST /stock/{sku}} and {@code POST
 * /reports/{id}}.
 */
@RestController
class LockedController {

	private final LockedWork work;

	LockedController(LockedWork work) {
		this.work = work;
	}

	@PostMapping("/stock/{sku}")
	void stock(@PathVariable String sku) {
		this.work.stock(sku);
	}

	@PostMapping("/orders/{sku}")
	void order(@PathVariable String sku) {
		try {
			this.work.stock(sku);
		}
		catch (RuntimeException ex) {
			// The application's own failure, caused by a lock failure after other work.
			throw new IllegalStateException("Order of " + sku + " failed", ex);
		}
	}

	@PostMapping("/reports/{id}")
	void report(@PathVariable String id) {
		this.work.report(id);
	}

}
