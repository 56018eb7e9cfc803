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

package dev.distlock.sample.demo;

import java.util.List;
import java.util.function.LongUnaryOperator;

import dev.distlock.sample.demo.DemoRequest.Kind;
import dev.distlock.sample.stock.OutOfStockException;
import dev.distlock.web.LockProblemTypes;

/**
 * Checks scenario 1 after the load: every SKU must end with exactly its initial stock
 * minus the items sold, must have sold exactly as many items as were asked for until it
 * ran out, and never goes below zero. A lost update (two decrements reading the same
 * stock) leaves more stock than expected.
 *
 * @param sent decrement requests sent
 * @param sold answered {@code 200}: one item taken
 * @param outOfStock answered {@code 409} out of stock
 * @param busy answered {@code 409} lock not acquired: nothing taken
 * @param unexpected any other answer, or none
 * @param finalStock the stock of all SKUs at the end, read from Redis
 * @param expectedFinalStock initial stock minus items sold
 * @param mismatchedSkus SKUs whose final stock or sales do not add up
 */
record StockCheck(int sent, int sold, int outOfStock, int busy, int unexpected, long finalStock,
		long expectedFinalStock, int mismatchedSkus) {

	/**
	 * Tallies the responses and compares them with the final stock of each SKU.
	 * @param settings the SKUs and their initial stock
	 * @param responses every response of the demo
	 * @param stockOfSku reads the final stock of a SKU
	 * @return the check
	 */
	static StockCheck of(DemoSettings settings, List<DemoResponse> responses, LongUnaryOperator stockOfSku) {
		int sent = 0, sold = 0, outOfStock = 0, busy = 0, unexpected = 0, mismatched = 0;
		long finalStock = 0, expectedFinal = 0;
		for (int sku = 1; sku <= settings.skus(); sku++) {
			String subject = Integer.toString(sku);
			List<DemoResponse> ofSku = responses.stream()
				.filter((response) -> response.request().kind() == Kind.DECREMENT
						&& response.request().subject().equals(subject))
				.toList();
			int skuSold = count(ofSku, 200);
			int skuOut = (int) ofSku.stream()
				.filter((r) -> r.status() == 409 && r.isProblem(OutOfStockException.TYPE))
				.count();
			int skuBusy = (int) ofSku.stream()
				.filter((r) -> r.status() == 409 && r.isProblem(LockProblemTypes.LOCK_NOT_ACQUIRED))
				.count();
			long skuFinal = stockOfSku.applyAsLong(sku);
			long skuExpected = settings.stockPerSku() - skuSold;
			boolean salesAddUp = skuSold == Math.min(settings.stockPerSku(), ofSku.size() - skuBusy);
			if (skuFinal != skuExpected || !salesAddUp || skuFinal < 0) {
				mismatched++;
			}
			sent += ofSku.size();
			sold += skuSold;
			outOfStock += skuOut;
			busy += skuBusy;
			unexpected += ofSku.size() - skuSold - skuOut - skuBusy;
			finalStock += skuFinal;
			expectedFinal += skuExpected;
		}
		return new StockCheck(sent, sold, outOfStock, busy, unexpected, finalStock, expectedFinal, mismatched);
	}

	private static int count(List<DemoResponse> responses, int status) {
		return (int) responses.stream().filter((response) -> response.status() == status).count();
	}

	/**
	 * Whether the stock is exactly as expected.
	 * @return {@code true} if no SKU mismatches and every response was an expected one
	 */
	boolean consistent() {
		return this.mismatchedSkus == 0 && this.unexpected == 0;
	}

}
