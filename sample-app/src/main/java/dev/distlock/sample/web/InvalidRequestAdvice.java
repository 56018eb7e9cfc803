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

package dev.distlock.sample.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.context.MessageSourceResolvable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every Spring MVC exception with problem details, and says which fields of an
 * invalid request are wrong: a {@code 400 Bad Request} for a body or parameter that fails
 * Bean Validation or cannot be read carries an {@code errors} array of {@code {"field",
 * "message"}} objects, and its {@code detail} names the fields.
 */
@RestControllerAdvice
public class InvalidRequestAdvice extends ResponseEntityExceptionHandler {

	@Override
	protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<InvalidField> errors = new ArrayList<>();
		for (FieldError error : ex.getBindingResult().getFieldErrors()) {
			errors.add(new InvalidField(error.getField(), message(error)));
		}
		ex.getBindingResult()
			.getGlobalErrors()
			.forEach((error) -> errors.add(new InvalidField(error.getObjectName(), message(error))));
		return handleExceptionInternal(ex, withErrors(ex.getBody(), errors), headers, status, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHandlerMethodValidationException(
			HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<InvalidField> errors = new ArrayList<>();
		ex.getParameterValidationResults()
			.forEach((result) -> result.getResolvableErrors()
				.forEach((error) -> errors
					.add(new InvalidField(result.getMethodParameter().getParameterName(), message(error)))));
		return handleExceptionInternal(ex, withErrors(ex.getBody(), errors), headers, status, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		ProblemDetail body = ProblemDetail.forStatusAndDetail(status, "The request body is not valid JSON");
		InvalidField field = UnreadableFields.describe(ex);
		if (field != null) {
			body = withErrors(body, new ArrayList<>(List.of(field)));
		}
		return handleExceptionInternal(ex, body, headers, status, request);
	}

	private static ProblemDetail withErrors(ProblemDetail body, List<InvalidField> errors) {
		errors.sort(Comparator.comparing(InvalidField::field).thenComparing(InvalidField::message));
		String fields = errors.stream().map(InvalidField::field).distinct().collect(Collectors.joining(", "));
		body.setDetail("Invalid request: " + fields);
		body.setProperty("errors", errors);
		return body;
	}

	private static String message(MessageSourceResolvable error) {
		String message = error.getDefaultMessage();
		return (message != null) ? message : "is invalid";
	}

}
