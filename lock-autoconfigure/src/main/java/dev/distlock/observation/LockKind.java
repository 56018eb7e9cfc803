package dev.distlock.observation;

import java.util.Locale;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Tags;

import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * What kind of lock a hold or an acquisition is, in the words that meters, observations
 * and the actuator endpoint show: its {@linkplain #kind() kind}, its {@linkplain #mode()
 * mode} and, for a semaphore, its {@linkplain #permits() permits}. All three come from a
 * small fixed set (the permits from the code of the application), so they are
 * low-cardinality tags. A lock of several keys is tagged per key: each of its keys is an
 * ordinary {@value #EXCLUSIVE} hold.
 *
 * @param kind {@value #EXCLUSIVE}, {@value #READ_WRITE} or {@value #SEMAPHORE}
 * @param mode {@code exclusive}, {@code read} or {@code write}: the {@link LockMode} in
 * lower case
 * @param permits how many holders the key admits: more than 1 for a semaphore, else 1
 */
public record LockKind(String kind, String mode, int permits) {

	/** Kind of a lock of one holder at a time. */
	public static final String EXCLUSIVE = "exclusive";

	/** Kind of the read or the write side of a read-write lock. */
	public static final String READ_WRITE = "read-write";

	/** Kind of a permit of a semaphore. */
	public static final String SEMAPHORE = "semaphore";

	/** Tag of the kind. */
	static final String KIND_TAG = LockObservationDocumentation.LowCardinalityKeyNames.KIND.asString();

	/** Tag of the mode. */
	static final String MODE_TAG = LockObservationDocumentation.LowCardinalityKeyNames.MODE.asString();

	/** Tag of the permits, only on the meters of a semaphore. */
	static final String PERMITS_TAG = LockObservationDocumentation.LowCardinalityKeyNames.PERMITS.asString();

	/**
	 * Returns the kind of a lock of a mode and permits.
	 * @param mode how the lock is shared
	 * @param permits how many holders the key admits
	 * @return the kind
	 */
	public static LockKind of(LockMode mode, int permits) {
		String kind = (permits > 1) ? SEMAPHORE : (mode != LockMode.EXCLUSIVE) ? READ_WRITE : EXCLUSIVE;
		return new LockKind(kind, mode.name().toLowerCase(Locale.ROOT), permits);
	}

	/**
	 * Returns the kind of lock that options acquire.
	 * @param options the options of an acquisition
	 * @return the kind
	 */
	public static LockKind of(LockOptions options) {
		return of(options.mode(), options.permits());
	}

	/**
	 * Returns the kind of a hold.
	 * @param handle the hold
	 * @return the kind
	 */
	public static LockKind of(LockHandle handle) {
		return of(handle.mode(), handle.permits());
	}

	/**
	 * Returns whether this is a permit of a semaphore.
	 * @return whether the kind is {@value #SEMAPHORE}
	 */
	public boolean isSemaphore() {
		return SEMAPHORE.equals(this.kind);
	}

	/**
	 * Returns the meter tags: {@code kind} and {@code mode}, and {@code permits} for a
	 * semaphore only, as the observations have them.
	 * @return the tags
	 */
	public Tags tags() {
		Tags tags = Tags.of(KIND_TAG, this.kind, MODE_TAG, this.mode);
		return isSemaphore() ? tags.and(PERMITS_TAG, Integer.toString(this.permits)) : tags;
	}

	/**
	 * Returns the low-cardinality key values of an observation, the same as
	 * {@link #tags()}.
	 * @return the key values
	 */
	public KeyValues keyValues() {
		KeyValues values = KeyValues.of(KIND_TAG, this.kind, MODE_TAG, this.mode);
		return isSemaphore() ? values.and(PERMITS_TAG, Integer.toString(this.permits)) : values;
	}

}
