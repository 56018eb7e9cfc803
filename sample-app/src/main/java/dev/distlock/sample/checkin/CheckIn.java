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
