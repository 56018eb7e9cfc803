package dev.distlock.fencing;

/**
 * Told of every fenced write a store refused, before the writer gets the
 * {@link StaleFencingTokenException}; the auto-configuration registers one that counts
 * them in a Micrometer meter ({@code distlock.fencing.refused}).
 */
@FunctionalInterface
public interface FencedWriteListener {

	/** A listener that does nothing. */
	FencedWriteListener NONE = (refusal) -> {
	};

	/**
	 * Called when a store refused a fenced write.
	 * @param refusal the exception the writer is about to get
	 */
	void refused(StaleFencingTokenException refusal);

}
