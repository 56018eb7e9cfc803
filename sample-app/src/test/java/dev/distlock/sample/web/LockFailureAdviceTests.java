package dev.distlock.sample.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import dev.distlock.LockLeaseLostException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease lost after the work finished is a server error without a retry hint: the work
 * may already be stored. (Provoking it over HTTP needs a lease to expire at an exact
 * moment, so the mapping is checked here directly; the other mappings are tested over
 * HTTP.)
 */
class LockFailureAdviceTests {

	@Test
	void leaseLostAfterTheWorkIsAServerErrorWithoutRetryAfter() {
		LockFailureAdvice advice = new LockFailureAdvice(Duration.ofSeconds(2));
		ResponseEntity<ProblemDetail> response = advice.leaseLost(
				new LockLeaseLostException("lock:check-in:FEMALE", Duration.ofSeconds(1), Duration.ofSeconds(3)));
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
		assertThat(response.getHeaders().containsHeader(HttpHeaders.RETRY_AFTER)).isFalse();
		assertThat(response.getBody()).isNotNull();
		assertThat(response.getBody().getType()).isEqualTo(LockFailureAdvice.LOCK_LEASE_LOST);
		assertThat(response.getBody().getDetail()).doesNotContain("lock:check-in").contains("overlapped");
	}

}
