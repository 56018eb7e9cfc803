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

import java.time.LocalDate;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * Finds which field made a JSON body unreadable, such as {@code "gender": "OTHER"} or
 * {@code "arrivalDate": "2025-13-45"}, from the Jackson exception behind Spring's
 * {@link org.springframework.http.converter.HttpMessageNotReadableException}.
 */
final class UnreadableFields {

	private UnreadableFields() {
	}

	/**
	 * Describes the field that could not be read.
	 * @param ex the exception of the message converter
	 * @return the field and what is wrong with it, or {@code null} if the body is not
	 * even JSON or no field can be named
	 */
	static @Nullable InvalidField describe(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof JacksonException jackson && !jackson.getPath().isEmpty()) {
				String field = jackson.getPath()
					.stream()
					.map((reference) -> (reference.getPropertyName() != null) ? reference.getPropertyName()
							: "[" + reference.getIndex() + "]")
					.collect(Collectors.joining("."));
				return new InvalidField(field, message(jackson));
			}
		}
		return null;
	}

	private static String message(JacksonException ex) {
		if (ex instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
			Class<?> type = mismatch.getTargetType();
			if (type.isEnum()) {
				return "must be one of " + Arrays.toString(type.getEnumConstants());
			}
			if (type == LocalDate.class) {
				return "must be a date in ISO-8601 format, such as 2025-09-01";
			}
			return "must be a valid " + type.getSimpleName();
		}
		return "cannot be read";
	}

}
