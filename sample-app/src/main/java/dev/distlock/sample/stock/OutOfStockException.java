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
