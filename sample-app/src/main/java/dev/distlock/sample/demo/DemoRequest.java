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

import java.net.http.HttpRequest;

/**
 * One request the demo sends.
 *
 * @param kind which scenario it exercises
 * @param subject the SKU id of a decrement, the phone number of a check-in
 * @param http the request itself, addressed to one of the instances
 */
record DemoRequest(Kind kind, String subject, HttpRequest http) {

	/**
	 * The scenarios the demo exercises.
	 */
	enum Kind {

		/** {@code POST /skus/{id}/stock/decrement}. */
		DECREMENT,

		/** {@code POST /check-in-queue}. */
		CHECK_IN

	}

}
