package dev.distlock.sample.orders;

/**
 * What one tick of the close-expired-orders job did on this instance.
 *
 * @param ran whether this instance did the work (otherwise another instance held the lock)
 * @param closed how many orders this instance closed
 */
public record CloseRun(boolean ran, int closed) {

	/**
	 * The tick was run here.
	 * @param closed how many orders were closed
	 * @return the run
	 */
	public static CloseRun ran(int closed) {
		return new CloseRun(true, closed);
	}

	/**
	 * The tick was skipped here because another instance held the lock.
	 * @return the run
	 */
	public static CloseRun skipped() {
		return new CloseRun(false, 0);
	}

}
