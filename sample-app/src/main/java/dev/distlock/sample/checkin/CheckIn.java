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

import java.time.Instant;
import java.time.LocalDate;

/**
 * One row of the {@code check_in} table: a student's place in the queue of their gender.
 *
 * @param phone the student's phone number, the primary key
 * @param studentName the student's name
 * @param gender the queue
 * @param arrivalDate the day the student arrives
 * @param position the place in the queue, from 1
 * @param checkedInAt when the place was given
 * @param fence the fencing token of the lock under which the place was given
 */
public record CheckIn(String phone, String studentName, Gender gender, LocalDate arrivalDate, int position,
		Instant checkedInAt, long fence) {

}
