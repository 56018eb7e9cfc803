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

package dev.distlock.sample.checkin;

import java.time.LocalDate;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /check-in-queue}. Bean Validation checks it before any lock is
 * taken, so the components are never {@code null} past the controller.
 *
 * @param studentName the student's name
 * @param phone the student's phone number, which identifies the check-in
 * @param gender which queue the student joins
 * @param arrivalDate the day the student arrives
 */
public record CheckInRequest(@NotBlank @Size(max = 100) String studentName,
		@NotBlank @Pattern(regexp = "\\+?[0-9]{6,15}",
				message = "must be 6 to 15 digits, optionally after a +") String phone,
		@NotNull Gender gender, @NotNull LocalDate arrivalDate) {

}
