package dev.distlock.sample.stock;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Thrown for a SKU that has no stock record; answered with {@code 404 Not Found}.
 */
public class SkuNotFoundException extends ErrorResponseException {

	/**
	 * Creates the exception.
	 * @param skuId the SKU
	 */
	public SkuNotFoundException(long skuId) {
		super(HttpStatus.NOT_FOUND, ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
				"SKU " + skuId + " has no stock record; create one with PUT /skus/" + skuId + "/stock"), null);
	}

}
