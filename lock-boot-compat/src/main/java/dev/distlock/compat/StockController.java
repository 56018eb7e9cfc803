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

package dev.distlock.compat;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The counts over HTTP: a busy lock answers {@code 409} and an unreachable Redis
 * {@code 503}, as problem details, by distlock's exception handler.
 */
@RestController
public class StockController {

	private final StockService stock;

	StockController(StockService stock) {
		this.stock = stock;
	}

	@PostMapping("/stock/{sku}")
	long increment(@PathVariable String sku) {
		return this.stock.increment(sku);
	}

	@GetMapping("/stock/{sku}")
	long report(@PathVariable String sku) {
		return this.stock.report(sku);
	}

}
