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

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Thrown when a decrement asks for more items than are left; answered with
 * {@code 409 Conflict}.
 */
public class OutOfStockException extends ErrorResponseException {

	/** Problem type of the response. */
	public static final URI TYPE = URI.create("urn:distlock-sample:problem:out-of-stock");

	/**
	 * Creates the exception.
	 * @param skuId the SKU
	 * @param available items left
	 * @param requested items asked for
	 */
	public OutOfStockException(long skuId, long available, long requested) {
		super(HttpStatus.CONFLICT, problem(skuId, available, requested), null);
	}

	private static ProblemDetail problem(long skuId, long available, long requested) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"SKU " + skuId + " has " + available + " item(s) left, " + requested + " requested");
		problem.setType(TYPE);
		problem.setTitle("Out of stock");
		problem.setProperty("skuId", skuId);
		problem.setProperty("available", available);
		return problem;
	}

}
