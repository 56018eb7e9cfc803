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
