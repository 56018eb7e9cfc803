package dev.distlock.sample.checkin;

/**
 * The two check-in queues: each gender has its own numbering, and its own lock.
 */
public enum Gender {

	/** Female students' queue. */
	FEMALE,

	/** Male students' queue. */
	MALE

}
