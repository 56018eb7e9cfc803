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
