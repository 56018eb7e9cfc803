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

package dev.distlock.sample.stock;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * HTTP API of the stock: {@code GET} and {@code PUT /skus/{skuId}/stock}, {@code POST
 * /skus/{skuId}/stock/decrement?quantity=1}, and {@code POST
 * /skus/{skuId}/stock/move?to=<skuId>&quantity=1}, which locks both SKUs together.
 */
@RestController
@RequestMapping("/skus/{skuId}/stock")
class StockController {

	private final StockService stock;

	StockController(StockService stock) {
		this.stock = stock;
	}

	@GetMapping
	StockLevel get(@PathVariable long skuId) {
		return this.stock.get(skuId);
	}

	@PutMapping
	StockLevel set(@PathVariable long skuId, @Valid @RequestBody StockUpdate update) {
		return this.stock.set(skuId, update.quantity());
	}

	@PostMapping("/decrement")
	StockLevel decrement(@PathVariable long skuId, @RequestParam(defaultValue = "1") @Min(1) long quantity) {
		return this.stock.decrement(skuId, quantity);
	}

	@PostMapping("/move")
	StockLevel move(@PathVariable long skuId, @RequestParam long to,
			@RequestParam(defaultValue = "1") @Min(1) long quantity) {
		return this.stock.move(skuId, to, quantity);
	}

	/**
	 * Body of {@code PUT /skus/{skuId}/stock}.
	 *
	 * @param quantity the new stock
	 */
	record StockUpdate(@NotNull @Min(0) Long quantity) {

	}

}
